package redact

import (
	"strings"
	"testing"
)

func TestStripPrivate(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"none", "no tags here", "no tags here"},
		{"one", "a <private>b</private> c", "a  c"},
		{"case", "a <PRIVATE>b</Private> c", "a  c"},
		{"several", "<private>1</private>x<private>2</private>", "x"},
		{"unclosed", "keep <private>drop all of this\nand this", "keep "},
		{"stray close", "a </private> b", "a  b"},
		{"nested", "a <private>b <private>c</private> d</private> e", "a  e"},
		{"attributes", `a <private reason="pii">b</private > c`, "a  c"},
		{"empty tag", "a <private/> b", "a  b"},
		{"not a tag", "a <privateKey> b </privately> c", "a <privateKey> b </privately> c"},
		{"formed by a cut", "<pri<private>x</private>vate>tail", ""},
		{"multiline", "a <private>\nline\n</private>\nb", "a \nb"},
		{"angle brackets only", "x < y > z", "x < y > z"},
		{"re-forming tags", "a " + strings.Repeat("<pri", 6) + "<private>x</private>" + strings.Repeat("vate>", 6) + "b", "a " + strings.Repeat("<pri", 5)},
	}
	for _, c := range cases {
		if got := StripPrivate(c.in); got != c.want {
			t.Errorf("%s: StripPrivate(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestPrivateCounts(t *testing.T) {
	out, n := Default().Redact("a <private>b</private> c <private>d")
	if out != "a  c " || n != 2 {
		t.Fatalf("Redact = %q, %d", out, n)
	}
}

// TestPrivateOffsets checks that Find maps private spans back to the
// original text, including spans removed in a second round.
func TestPrivateOffsets(t *testing.T) {
	s := "ab<pri<private>x</private>vate>cd</private>ef"
	var got []Finding
	for _, f := range Default().Find(s) {
		if f.Kind == KindPrivate {
			got = append(got, f)
		}
	}
	// Round one removes <private>x</private> and the stray </private>;
	// the <private> that forms then runs to the end.
	want := []Finding{{KindPrivate, 2, len(s)}}
	if StripPrivate(s) != "ab" {
		t.Fatalf("StripPrivate = %q", StripPrivate(s))
	}
	if len(got) != 1 || got[0] != want[0] {
		t.Fatalf("private findings %v, want %v", got, want)
	}
}
