package distill

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var pointerShape = regexp.MustCompile(`^- \d{4}-\d{2}-\d{2} \[recap\]\(rollout_summaries/[a-z0-9-]+\.md\) session \S+`)

func TestSummaryV2(t *testing.T) {
	in := corpusInput(V2)
	out := Consolidate(in)
	golden(t, "summary_v2.golden", out.Summary)
	if out.Memory != "" || len(out.Skills) != 0 {
		t.Error("V2 wrote MEMORY.md or skills")
	}
	if !SummaryValid(out.Summary) || len(out.Summary) >= SummaryV2MaxBytes {
		t.Fatalf("invalid or %d bytes", len(out.Summary))
	}
	// The four headings, in order.
	at := 0
	for _, h := range []string{"## User Profile\n", "## User preferences\n", "## General Tips\n", "## What's in Memory\n"} {
		i := strings.Index(out.Summary[at:], h)
		if i < 0 {
			t.Fatalf("heading %q missing or out of order", h)
		}
		at += i
	}
	prefs := section(out.Summary, "User preferences")
	// Stated as a default ("always") and seen in two tasks: a preference.
	if !strings.Contains(prefs, "Always run go test ./... before you commit.") {
		t.Error("a default stated twice is not a preference")
	}
	// One task's steering is task history, not a trait.
	for _, not := range []string{"Please keep answers short.", "Keep commit messages in the form", "We use pnpm for everything"} {
		if strings.Contains(out.Summary, not) {
			t.Errorf("%q promoted to the summary from one task", not)
		}
	}
	// Everything else is a dated pointer to a recap and its session.
	index := section(out.Summary, "What's in Memory")
	n := 0
	for line := range strings.Lines(index) {
		if strings.HasPrefix(line, "- ") {
			n++
			if !pointerShape.MatchString(line) {
				t.Errorf("pointer %q", line)
			}
		}
	}
	if n != len(in.Extractions) {
		t.Errorf("%d pointers for %d recaps", n, len(in.Extractions))
	}
}

func TestSummaryV2Size(t *testing.T) {
	out := Consolidate(bigInput(V2))
	if len(out.Summary) >= SummaryV2MaxBytes || !SummaryValid(out.Summary) {
		t.Errorf("V2 summary of %d bytes (cap %d), valid %v", len(out.Summary), SummaryV2MaxBytes, SummaryValid(out.Summary))
	}
	if !strings.Contains(out.Summary, "## What's in Memory\n\n- ") {
		t.Error("every pointer was cut")
	}
}

func TestSummaryV2HandEdits(t *testing.T) {
	in := corpusInput(V2)
	out := Consolidate(in)
	always := lineWith(out.Summary, "Always run go test")
	mine := strings.Replace(out.Summary, always+"\n", "", 1)
	mine = strings.Replace(mine, "## General Tips\n\n", "## General Tips\n\n- The staging database is reset every Monday.\n", 1)
	in2 := next(in, out)
	in2.Summary = mine
	in2.Changes = []Change{{Path: SummaryPath, Kind: Modified, Before: []byte(out.Summary), After: []byte(mine)}}
	out2 := Consolidate(in2)
	if len(out2.Edits.Retract) != 2 || len(out2.Edits.NewNotes) != 1 || out2.Edits.NewNotes[0] != "The staging database is reset every Monday." {
		t.Errorf("edits %+v", out2.Edits)
	}
	if strings.Contains(out2.Summary, "Always run go test") || count(out2.Summary, "The staging database is reset every Monday.") != 1 {
		t.Errorf("hand edits not honoured:\n%s", out2.Summary)
	}
	if !strings.Contains(section(out2.Summary, "General Tips"), "staging database") {
		t.Error("the person's line moved out of its section")
	}

	// Removing a pointer forgets its recap, this pass and the next.
	yaml := slugOf(in, "5b2f-yaml")
	ptr := lineWith(out.Summary, yaml)
	in3 := next(in, out)
	in3.Summary = strings.Replace(out.Summary, ptr+"\n", "", 1)
	in3.Changes = []Change{{Path: SummaryPath, Kind: Modified, Before: []byte(out.Summary), After: []byte(in3.Summary)}}
	out3 := Consolidate(in3)
	if !slices.Equal(out3.Edits.Drop, []string{"r:" + yaml}) || strings.Contains(out3.Summary, yaml) {
		t.Errorf("removed pointer: edits %+v", out3.Edits)
	}
	in4 := next(in3, out3)
	in4.Dropped = out3.Edits.Drop
	if out4 := Consolidate(in4); strings.Contains(out4.Summary, yaml) || !out4.NoOp {
		t.Error("a forgotten recap came back")
	}
}

// section returns the text under a "## " heading, up to the next one.
func section(page, title string) string {
	_, rest, ok := strings.Cut(page, "## "+title+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}
