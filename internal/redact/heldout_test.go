package redact

import (
	"strings"
	"testing"
)

// TestHeldOut measures precision and recall on lines written after the
// rules were finished (testdata/heldout_*.txt): a less flattering, more
// honest estimate than TestCorpus, whose lines were written with the rules.
func TestHeldOut(t *testing.T) {
	r := Default()
	var tp, fn, fp int
	for _, line := range corpusLines(t, "testdata/heldout_positive.txt") {
		text, ms := parseMarks(t, line)
		fs := r.Find(text)
		for _, m := range ms {
			if _, ok := covers(fs, m); ok {
				tp++
			} else {
				fn++
				t.Logf("missed %s in %q", m.kind, text)
			}
		}
		for _, f := range fs {
			if !overlapsAny(f, ms) {
				fp++
				t.Logf("false positive %s in %q", f.Kind, text)
			}
		}
	}
	for _, line := range corpusLines(t, "testdata/heldout_negative.txt") {
		for _, f := range r.Find(line) {
			fp++
			t.Logf("false positive %s %q in %q", f.Kind, line[f.Start:f.End], strings.TrimSpace(line))
		}
	}
	precision := float64(tp) / float64(max(1, tp+fp))
	recall := float64(tp) / float64(max(1, tp+fn))
	t.Logf("held out: tp=%d fn=%d fp=%d precision %.3f recall %.3f", tp, fn, fp, precision, recall)
	if precision < 0.9 || recall < 0.8 {
		t.Errorf("held-out precision %.3f / recall %.3f below 0.9 / 0.8", precision, recall)
	}
}
