package distill

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseAnchor(t *testing.T) {
	tests := []struct {
		line string
		body string
		ids  []int64
		keys []string
		ok   bool
	}{
		{"- Always test. <!-- s:12 -->", "- Always test.", []int64{12}, nil, true},
		{"- a <!-- s:12,40 -->  ", "- a", []int64{12, 40}, nil, true},
		{"- a <!--s:3-->", "- a", []int64{3}, nil, true},
		{"- a <!-- k:1a2b3c4d -->", "- a", nil, []string{"1a2b3c4d"}, true},
		{"- a <!-- s:7 k:1a2b3c4d -->", "- a", []int64{7}, []string{"1a2b3c4d"}, true},
		{"- a <!-- s:7,7 -->", "- a", []int64{7}, nil, true},
		{"- a <!-- a comment -->", "- a <!-- a comment -->", nil, nil, false},
		{"- a <!-- s:0 -->", "- a <!-- s:0 -->", nil, nil, false},
		{"- a <!-- s:-4 -->", "- a <!-- s:-4 -->", nil, nil, false},
		{"- a <!-- s:x -->", "- a <!-- s:x -->", nil, nil, false},
		{"- a <!-- k:XYZ -->", "- a <!-- k:XYZ -->", nil, nil, false},
		{"- a <!-- s: -->", "- a <!-- s: -->", nil, nil, false},
		{"- a <!-- -->", "- a <!-- -->", nil, nil, false},
		{"- a -->", "- a -->", nil, nil, false},
		{"<!--->", "<!--->", nil, nil, false},
		{"- a <!-- s:99999999999999999999 -->", "- a <!-- s:99999999999999999999 -->", nil, nil, false},
		{"", "", nil, nil, false},
	}
	for _, tc := range tests {
		body, a, ok := ParseAnchor(tc.line)
		if ok != tc.ok || body != tc.body || !slices.Equal(a.IDs, tc.ids) || !slices.Equal(a.Keys, tc.keys) {
			t.Errorf("ParseAnchor(%q) = %q, %+v, %v", tc.line, body, a, ok)
		}
	}
}

func TestAnchorRoundTrip(t *testing.T) {
	for _, a := range []Anchor{{IDs: []int64{1}}, {IDs: []int64{5, 3}}, {Keys: []string{"abcd1234"}}, {IDs: []int64{9}, Keys: []string{"0000", "ffff"}}} {
		body, got, ok := ParseAnchor(withAnchor("- x", a))
		if !ok || body != "- x" || fmt.Sprint(got) != fmt.Sprint(a) {
			t.Errorf("%+v came back as %q %+v %v", a, body, got, ok)
		}
	}
	if (Anchor{}).String() != "" || withAnchor("- x", Anchor{}) != "- x" {
		t.Error("an empty anchor renders")
	}
}

func TestParsePage(t *testing.T) {
	page := "# MEMORY\n\n_intro_\n\n## fam · a\n\n- **Scope:** x\n- **Sessions:** [d](rollout_summaries/s.md) `r`\n\n### Preferences\n\n- rule <!-- s:1 -->\n- mine\n```sh\n- not a note <!-- s:2 -->\n```\n"
	var kinds []string
	for _, l := range parsePage(page) {
		kinds = append(kinds, fmt.Sprintf("%d:%s/%s", l.kind, l.family, l.section))
	}
	want := []string{"1:/", "0:/", "2:/", "0:/", "1:fam · a/", "0:fam · a/", "2:fam · a/", "2:fam · a/", "0:fam · a/",
		"1:fam · a/Preferences", "0:fam · a/Preferences", "3:fam · a/Preferences", "4:fam · a/Preferences",
		"5:fam · a/Preferences", "5:fam · a/Preferences", "5:fam · a/Preferences"}
	if !slices.Equal(kinds, want) {
		t.Errorf("kinds\n got %v\nwant %v", kinds, want)
	}
}

func TestNorm(t *testing.T) {
	same := [][2]string{
		{"- Always use pnpm. <!-- s:4 -->", "Always use pnpm"},
		{"* \"always   use pnpm\"", "- always use pnpm."},
		{"1. Always use pnpm", "Always use pnpm!"},
	}
	for _, p := range same {
		if norm(p[0]) != norm(p[1]) {
			t.Errorf("norm(%q) = %q, norm(%q) = %q", p[0], norm(p[0]), p[1], norm(p[1]))
		}
	}
	if norm("Always use pnpm") == norm("Never use pnpm") {
		t.Error("different rules compare equal")
	}
}

// FuzzParseAnchor checks that anchor parsing accepts any Markdown and
// that whatever it accepts renders back to itself.
func FuzzParseAnchor(f *testing.F) {
	for _, s := range []string{
		"- Always test. <!-- s:12,40 -->", "- a <!-- k:1a2b3c4d -->", "<!-- s:1 k:ffff -->", "- a <!--", "-->",
		"<!---->", "<!-- s:,, -->", "<!-- s:1,-2 -->", "- 中文 <!-- s:7 -->", "\x00<!-- k:0000 -->\xff",
		"```\n- a <!-- s:1 -->\n```", "## h\n### s\n- x <!-- s:3 -->\n", strings.Repeat("<!--", 50),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body, a, ok := ParseAnchor(s)
		if !ok {
			if !a.Empty() {
				t.Fatalf("rejected anchor with contents %+v", a)
			}
			return
		}
		if a.Empty() {
			t.Fatal("accepted an empty anchor")
		}
		_, again, ok2 := ParseAnchor(withAnchor(body+" x", a))
		if !ok2 || fmt.Sprint(again) != fmt.Sprint(a) {
			t.Fatalf("%+v does not round-trip: %+v", a, again)
		}
		for _, l := range parsePage(s) {
			_ = norm(l.raw)
			_ = clean(l.body)
		}
	})
}

// FuzzDetectEdits checks that reading hand edits accepts any pair of
// pages and never proposes an empty note.
func FuzzDetectEdits(f *testing.F) {
	base := "# MEMORY\n\n## a\n\n### Preferences\n\n- rule <!-- s:1 -->\n- two <!-- s:2,3 -->\n- cmd <!-- k:abcd -->\n"
	f.Add(base, base)
	f.Add(base, strings.Replace(base, "- rule <!-- s:1 -->\n", "", 1))
	f.Add(base, base+"- mine\n")
	f.Add(base, strings.Replace(base, "two", "deux", 1))
	f.Add("", "```\n- x\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		pe := detectEdits(before, after)
		for _, n := range pe.NewNotes {
			if strings.TrimSpace(n) == "" {
				t.Fatalf("empty note from %q → %q", before, after)
			}
		}
		for _, s := range pe.Supersede {
			if s.ID <= 0 {
				t.Fatalf("supersession of id %d", s.ID)
			}
		}
		_ = parseRaw(after)
		_, _ = noteFile("extensions/ad_hoc/notes/"+before, []byte(after))
	})
}
