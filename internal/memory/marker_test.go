package memory

import (
	"strings"
	"testing"
)

func TestStripMarked(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"before " + MarkerOpen + "secret memory" + MarkerClose + " after", "before  after"},
		{MarkerOpen + "a" + MarkerClose + "x" + MarkerOpen + "b" + MarkerClose, "x"},
		{`<cairn-memory v="1" status="rows">inside</cairn-memory>tail`, "tail"},
		{"head " + MarkerOpen + "truncated block", "head"},
		{"<cairn-memoryx>not ours</cairn-memoryx>", "<cairn-memoryx>not ours</cairn-memoryx>"},
		{"<cairn-<cairn-memory>x</cairn-memory>memory>hidden</cairn-memory>tail", "tail"},
	}
	for _, c := range cases {
		if got := StripMarked(c.in); got != c.want {
			t.Errorf("StripMarked(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzStripMarked(f *testing.F) {
	f.Add("a<cairn-memory>b</cairn-memory>c")
	f.Add("<cairn-memory <cairn-memory>>")
	f.Fuzz(func(t *testing.T, s string) {
		out := StripMarked(s)
		if strings.Contains(out, MarkerOpen) {
			t.Fatalf("marker survived: %q → %q", s, out)
		}
		if StripMarked(out) != out {
			t.Fatalf("not idempotent: %q", s)
		}
	})
}
