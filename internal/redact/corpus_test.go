package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// corpusLines reads the non-comment lines of a testdata file, expanded.
func corpusLines(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, expand(t, line))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCorpus measures precision and recall over testdata/positive.txt and
// testdata/negative.txt. A marked secret is found when one finding covers
// it; any finding that overlaps no mark is a false positive.
func TestCorpus(t *testing.T) {
	r := Default()
	var tp, fn, fp, kindOK int
	pos := corpusLines(t, "testdata/positive.txt")
	neg := corpusLines(t, "testdata/negative.txt")
	if len(pos) < 150 || len(neg) < 150 {
		t.Fatalf("corpus too small: %d positive, %d negative lines", len(pos), len(neg))
	}
	for _, line := range pos {
		text, ms := parseMarks(t, line)
		if len(ms) == 0 {
			t.Errorf("positive line without a mark: %q", line)
			continue
		}
		fs := r.Find(text)
		out, _ := r.Redact(text)
		// The same line as a JSON string value: decoded, it must be as clean.
		doc, _ := json.Marshal(map[string]string{"content": text})
		red, _ := r.RedactJSON(doc)
		var back map[string]string
		if err := json.Unmarshal(red, &back); err != nil {
			t.Fatalf("RedactJSON broke %s: %v", doc, err)
		}
		for _, m := range ms {
			kind, ok := covers(fs, m)
			switch {
			case !ok:
				fn++
				t.Logf("missed %s in %q: %v", m.kind, text, fs)
			case kind != m.kind:
				tp++
				t.Logf("found %s as %s in %q", m.kind, kind, text)
			default:
				tp++
				kindOK++
			}
			if secret := text[m.start:m.end]; strings.Contains(out, secret) || strings.Contains(back["content"], secret) {
				t.Errorf("%s survives redaction: %q / %q", m.kind, out, back["content"])
			}
		}
		for _, f := range fs {
			if !overlapsAny(f, ms) {
				fp++
				t.Logf("false positive %s %q in %q", f.Kind, text[f.Start:f.End], text)
			}
		}
	}
	for _, line := range neg {
		if strings.Contains(line, "«") {
			t.Errorf("negative line with a mark: %q", line)
		}
		for _, f := range r.Find(line) {
			fp++
			t.Logf("false positive %s %q in %q", f.Kind, line[f.Start:f.End], line)
		}
	}
	precision := float64(tp) / float64(max(1, tp+fp))
	recall := float64(tp) / float64(max(1, tp+fn))
	kinds := float64(kindOK) / float64(max(1, tp))
	t.Logf("corpus: %d positive lines, %d negative lines; tp=%d fn=%d fp=%d", len(pos), len(neg), tp, fn, fp)
	t.Logf("precision %.3f recall %.3f kind accuracy %.3f", precision, recall, kinds)
	if precision < 0.97 || recall < 0.97 || kinds < 0.97 {
		t.Errorf("below 0.97: precision %.3f recall %.3f kind accuracy %.3f", precision, recall, kinds)
	}
}
