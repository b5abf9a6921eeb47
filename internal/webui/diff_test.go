package webui

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// side rebuilds one side of a diff: the kept lines with the lines of op.
func side(d []diffLine, op string) []string {
	var out []string
	for _, l := range d {
		if l.Op == " " || l.Op == op {
			out = append(out, l.Text)
		}
	}
	return out
}

func count(d []diffLine, op string) int {
	n := 0
	for _, l := range d {
		if l.Op == op {
			n++
		}
	}
	return n
}

func numbered(n int, prefix string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(prefix + strconv.Itoa(i) + "\n")
	}
	return b.String()
}

func TestLineDiff(t *testing.T) {
	big := numbered(maxDiffLines+1, "line ")
	for _, tc := range []struct {
		name          string
		before, after string
		// the counts of kept, removed and added lines
		kept, removed, added int
	}{
		{"unchanged", "a\nb\n", "a\nb\n", 2, 0, 0},
		{"added at the end", "a\nb\n", "a\nb\nc\n", 2, 0, 1},
		{"added at the start", "b\nc\n", "a\nb\nc\n", 2, 0, 1},
		{"removed", "a\nb\nc\n", "a\nc\n", 2, 1, 0},
		{"changed middle line", "a\nb\nc\n", "a\nB\nc\n", 2, 1, 1},
		{"empty before", "", "a\nb\n", 0, 0, 2},
		{"empty after", "a\nb\n", "", 0, 2, 0},
		{"both empty", "", "", 0, 0, 0},
		{"no final newline", "a\nb", "a\nb\n", 2, 0, 0},
		{"repeated lines", "x\nx\ny\nx\n", "x\ny\nx\nx\n", 3, 1, 1},
		{"too long: removed and added whole", big, big + "one more\n", 0, maxDiffLines + 1, maxDiffLines + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := lineDiff(tc.before, tc.after)
			if got := side(d, "+"); !slices.Equal(got, splitLines(tc.after)) {
				t.Errorf("kept and added lines give %q, want after %q", got, tc.after)
			}
			if got := side(d, "-"); !slices.Equal(got, splitLines(tc.before)) {
				t.Errorf("kept and removed lines give %q, want before %q", got, tc.before)
			}
			if k, r, a := count(d, " "), count(d, "-"), count(d, "+"); k != tc.kept || r != tc.removed || a != tc.added {
				t.Errorf("kept %d removed %d added %d, want %d %d %d", k, r, a, tc.kept, tc.removed, tc.added)
			}
			for _, l := range d {
				if l.Op != " " && l.Op != "-" && l.Op != "+" {
					t.Errorf("op %q", l.Op)
				}
			}
		})
	}
}

// TestLineDiffChangedLineInPlace: a changed line shows as removed then
// added at its own position, between the lines around it.
func TestLineDiffChangedLineInPlace(t *testing.T) {
	d := lineDiff("a\nb\nc\n", "a\nB\nc\n")
	want := []diffLine{{" ", "a"}, {"-", "b"}, {"+", "B"}, {" ", "c"}}
	if !slices.Equal(d, want) {
		t.Fatalf("got %q, want %q", d, want)
	}
}

// FuzzLineDiff: any two texts give a diff whose sides rebuild them.
func FuzzLineDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("", "x")
	f.Add("x\n\n\ny", "\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		d := lineDiff(before, after)
		if got := side(d, "+"); !slices.Equal(got, splitLines(after)) {
			t.Fatalf("after: %q from %q", got, after)
		}
		if got := side(d, "-"); !slices.Equal(got, splitLines(before)) {
			t.Fatalf("before: %q from %q", got, before)
		}
	})
}
