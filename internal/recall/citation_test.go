package recall

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing"
)

type citeCase struct {
	name  string
	in    string
	clean string
	refs  string // refs as Ref.String, space-separated
	vault string // vault refs as VaultRef.String, space-separated
}

var citeCases = []citeCase{
	{name: "end of answer", in: "Done.\n\n<cairn-cite>n12, f3</cairn-cite>", clean: "Done.", refs: "n12 f3"},
	{name: "keeps the final newline", in: "Done.\n\n<cairn-cite>n12</cairn-cite>\n", clean: "Done.\n", refs: "n12"},
	{name: "after a sentence", in: "Use the retry. <cairn-cite>n1</cairn-cite>", clean: "Use the retry.", refs: "n1"},
	{name: "case and attributes", in: "Answer <CAIRN-CITE type=\"memory\">N12 #7</Cairn-Cite >", clean: "Answer", refs: "n12 n7"},
	{name: "lines inside", in: "A\n<cairn-cite>\n  n1\n  e4\n</cairn-cite>\nB", clean: "A\nB", refs: "n1 e4"},
	{name: "several tags, deduplicated in order", in: "x <cairn-cite>n2</cairn-cite> y <cairn-cite>n1 n2 f1</cairn-cite>", clean: "x y", refs: "n2 n1 f1"},
	{name: "separators and brackets", in: "<cairn-cite>[n12], (f3); e4 | p123, l1 `p9` n#5</cairn-cite>", clean: "", refs: "n12 f3 e4 p123 l1 p9 n5"},
	{name: "chinese separators", in: "好的。<cairn-cite>n1，f2、e3；l4</cairn-cite>", clean: "好的。", refs: "n1 f2 e3 l4"},
	{name: "bad ids and unknown tokens", in: "ok <cairn-cite>n0 x12 n-3 n+4 n99999999999999999999 f9223372036854775807 12 note: n1. e4x</cairn-cite>", clean: "ok", refs: "f9223372036854775807 n1"},
	{name: "leading zeros", in: "<cairn-cite>n007</cairn-cite>", clean: "", refs: "n7"},
	{name: "empty citation", in: "ok <cairn-cite></cairn-cite>", clean: "ok"},
	{name: "self-closing", in: "ok. <cairn-cite/>", clean: "ok."},
	{name: "forgot the >", in: "Answer.\n<cairn-cite n1 f2</cairn-cite>", clean: "Answer.", refs: "n1 f2"},
	{name: "vault refs", in: "ok\n<cairn-cite>v:notes/retry.md#L10-L20, v:MEMORY.md#L3, v:a.md, v:b.md#L20-10, v:c.md#intro, v:./d//e.md, v:../etc/passwd, v:/abs.md, v:, v:x#L0, n1</cairn-cite>",
		clean: "ok", refs: "n1", vault: "v:notes/retry.md#L10-L20 v:MEMORY.md#L3 v:a.md v:b.md#L10-L20 v:c.md v:d/e.md v:x"},
	{name: "fenced code is text", in: "```\n<cairn-cite>n1</cairn-cite>\n```", clean: "```\n<cairn-cite>n1</cairn-cite>\n```"},
	{name: "inline code is text", in: "Write `<cairn-cite>n1</cairn-cite>` at the end.", clean: "Write `<cairn-cite>n1</cairn-cite>` at the end."},
	{name: "double backtick code is text", in: "Try ``a ` <cairn-cite>n1</cairn-cite>`` here", clean: "Try ``a ` <cairn-cite>n1</cairn-cite>`` here"},
	{name: "unclosed fence is text", in: "ok\n~~~~\n<cairn-cite>n1</cairn-cite>\n~~~\n", clean: "ok\n~~~~\n<cairn-cite>n1</cairn-cite>\n~~~\n"},
	{name: "fence in a quote and a list", in: "> ```\n> <cairn-cite>n1</cairn-cite>\n> ```\n- ```html\n  <cairn-cite>n2</cairn-cite>\n  ```\nok <cairn-cite>n3</cairn-cite>",
		clean: "> ```\n> <cairn-cite>n1</cairn-cite>\n> ```\n- ```html\n  <cairn-cite>n2</cairn-cite>\n  ```\nok", refs: "n3"},
	{name: "example in code and a real citation", in: "Example:\n\n```html\n<cairn-cite>n1</cairn-cite>\n```\n\nDone. <cairn-cite>f2</cairn-cite>",
		clean: "Example:\n\n```html\n<cairn-cite>n1</cairn-cite>\n```\n\nDone.", refs: "f2"},
	{name: "unmatched backtick is not code", in: "It's `weird <cairn-cite>n1</cairn-cite>", clean: "It's `weird", refs: "n1"},
	{name: "code span ends at a paragraph", in: "a `b\n\n<cairn-cite>n1</cairn-cite>\n\nc` d", clean: "a `b\n\nc` d", refs: "n1"},
	{name: "codex citation is left alone", in: "Answer.\n<oai-mem-citation>\n<citation_entries>\nMEMORY.md:1-2|note=[x]\n</citation_entries>\n<cairn-cite>n1</cairn-cite>\n</oai-mem-citation>",
		clean: "Answer.\n<oai-mem-citation>\n<citation_entries>\nMEMORY.md:1-2|note=[x]\n</citation_entries>\n<cairn-cite>n1</cairn-cite>\n</oai-mem-citation>"},
	{name: "both citations", in: "Answer.\n<cairn-cite>n1</cairn-cite>\n<oai-mem-citation>\n<rollout_ids>\nabc\n</rollout_ids>\n</oai-mem-citation>\n",
		clean: "Answer.\n<oai-mem-citation>\n<rollout_ids>\nabc\n</rollout_ids>\n</oai-mem-citation>\n", refs: "n1"},
	{name: "cut off after refs", in: "Answer.\n\n<cairn-cite>n12, f3", clean: "Answer.", refs: "n12 f3"},
	{name: "cut off in the closing tag", in: "Answer. <cairn-cite>n12</cairn-ci", clean: "Answer.", refs: "n12"},
	{name: "cut off in a ref", in: "Answer. <cairn-cite>n12 f", clean: "Answer.", refs: "n12"},
	{name: "cut off in the opening tag", in: "Answer.\n\n<cairn-ci", clean: "Answer."},
	{name: "cut off right after the tag", in: "Answer.\n<cairn-cite>", clean: "Answer."},
	{name: "cut off with a remark", in: "Answer.\n<cairn-cite>n1 because of the note", clean: "Answer.", refs: "n1"},
	{name: "stray tag in prose, real one later", in: "Use a <cairn-cite> tag like this.\n\nDone. <cairn-cite>n1</cairn-cite>", clean: "Use a tag like this.\n\nDone.", refs: "n1"},
	{name: "stray tag before a paragraph", in: "The <cairn-cite> tag is ours.\n\nMore prose.", clean: "The tag is ours.\n\nMore prose."},
	{name: "stray tag in one paragraph", in: "Write <cairn-cite> at the end", clean: "Write at the end"},
	{name: "unclosed, then a paragraph", in: "<cairn-cite>n1\n\nMore.", clean: "n1\n\nMore."},
	{name: "stray closing tag", in: "Answer</cairn-cite> more", clean: "Answer more"},
	{name: "nested opening tag", in: "<cairn-cite>n1 <cairn-cite>n2</cairn-cite>", clean: "n1", refs: "n2"},
	{name: "not our tag", in: "<cairn-citex>n1</cairn-citex> <cairn-cite-2>n2</cairn-cite-2>", clean: "<cairn-citex>n1</cairn-citex> <cairn-cite-2>n2</cairn-cite-2>"},
	{name: "no double blank line", in: "Para one.\n\n<cairn-cite>n1</cairn-cite>\n\nPara two.", clean: "Para one.\n\nPara two.", refs: "n1"},
	{name: "tag first", in: "<cairn-cite>n1</cairn-cite>\n\nAnswer.", clean: "Answer.", refs: "n1"},
	{name: "tag first, inline", in: "<cairn-cite>n1</cairn-cite> Answer.", clean: "Answer.", refs: "n1"},
	{name: "tag between words", in: "see <cairn-cite>n1</cairn-cite> here", clean: "see here", refs: "n1"},
	{name: "trailing spaces", in: "Answer.   <cairn-cite>n1</cairn-cite>   \nNext line.", clean: "Answer.\nNext line.", refs: "n1"},
	{name: "trailing blank lines", in: "Answer.\n<cairn-cite>n1</cairn-cite>\n\n\n\n", clean: "Answer.\n", refs: "n1"},
	{name: "crlf", in: "Answer. <cairn-cite>n1</cairn-cite>\r\nMore.\r\n\r\n<cairn-cite>f2</cairn-cite>\r\n", clean: "Answer.\r\nMore.\r\n", refs: "n1 f2"},
	{name: "tags that join when removed", in: "<cairn-<cairn-cite>n1</cairn-cite>cite>n2</cairn-cite>", clean: "", refs: "n1 n2"},
	{name: "no tag keeps the text as is", in: "  hello  \n\n\n", clean: "  hello  \n\n\n"},
	{name: "only code keeps the text as is", in: "`<cairn-cite>`  \n\n", clean: "`<cairn-cite>`  \n\n"},
	{name: "long line", in: strings.Repeat("x", 70000) + " <cairn-cite>n1</cairn-cite>", clean: strings.Repeat("x", 70000), refs: "n1"},
}

func TestParseCitations(t *testing.T) {
	for _, tc := range citeCases {
		t.Run(tc.name, func(t *testing.T) {
			clean, c := ParseCitations(tc.in)
			if clean != tc.clean {
				t.Errorf("clean\n got %q\nwant %q", clean, tc.clean)
			}
			if got := citeRefStrings(c); got != tc.refs {
				t.Errorf("refs: got %q, want %q", got, tc.refs)
			}
			if got := citeVaultStrings(c); got != tc.vault {
				t.Errorf("vault: got %q, want %q", got, tc.vault)
			}
			citeCheckInvariants(t, tc.in, clean, c)
		})
	}
}

// A text built so that every removal makes a new tag needs more passes
// than the stripper allows; it is defused and still leaves no tag.
func TestParseCitationsDefusesDeepJoins(t *testing.T) {
	for _, depth := range []int{citeMaxPasses - 2, citeMaxPasses + 3, 40} {
		in := strings.Repeat("<cairn-", depth) + "<cairn-cite>n1</cairn-cite>" + strings.Repeat("cite>n2</cairn-cite>", depth)
		in = "```\n<cairn-cite>n3</cairn-cite>\n```\n" + in
		clean, c := ParseCitations(in)
		if citeTagRe.MatchString(clean) && depth > citeMaxPasses {
			t.Errorf("depth %d: a tag is left: %q", depth, clean)
		}
		if len(c.Refs) == 0 || c.Refs[0] != (Ref{'n', 1}) {
			t.Errorf("depth %d: refs %v", depth, c.Refs)
		}
		citeCheckInvariants(t, in, clean, c)
	}
}

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" when rejected
	}{
		{"n12", "n12"}, {"N12", "n12"}, {"#12", "n12"}, {"n#12", "n12"},
		{"f3", "f3"}, {"E4", "e4"}, {"p123", "p123"}, {"l1", "l1"},
		{"x1", ""}, {"n", ""}, {"#", ""}, {"n0", ""}, {"n-1", ""}, {"n+1", ""},
		{"n1a", ""}, {"n 1", ""}, {"n9223372036854775808", ""}, {"", ""}, {"ｎ1", ""},
		{"n9223372036854775807", "n9223372036854775807"},
	} {
		r, ok := ParseRef(tc.in)
		got := ""
		if ok {
			got = r.String()
		}
		if got != tc.want {
			t.Errorf("ParseRef(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestVaultRefString(t *testing.T) {
	for _, tc := range []struct {
		v    VaultRef
		want string
	}{
		{VaultRef{Path: "MEMORY.md"}, "v:MEMORY.md"},
		{VaultRef{Path: "a/b.md", From: 3, To: 3}, "v:a/b.md#L3"},
		{VaultRef{Path: "a/b.md", From: 3, To: 9}, "v:a/b.md#L3-L9"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.v, got, tc.want)
		}
		// What String writes, a citation reads back.
		_, c := ParseCitations(CiteOpen + tc.v.String() + CiteClose)
		if len(c.Vault) != 1 || c.Vault[0] != tc.v {
			t.Errorf("%q read back as %+v", tc.want, c.Vault)
		}
	}
}

func FuzzParseCitations(f *testing.F) {
	for _, tc := range citeCases {
		if len(tc.in) < 4096 {
			f.Add(tc.in)
		}
	}
	f.Add("`a` <cairn-cite>`n1</cairn-cite> `<cairn-cite>f2</cairn-cite>`")
	f.Add("<cairn-cite>`</cairn-cite>\n```\n<cairn-cite>n1</cairn-cite>")
	f.Add("<<cairn-cite>x</cairn-cite>cairn-cite>n1</cairn-cite>")
	f.Fuzz(func(t *testing.T, in string) {
		clean, c := ParseCitations(in)
		if again, _ := ParseCitations(in); again != clean {
			t.Fatalf("not deterministic: %q then %q", clean, again)
		}
		citeCheckInvariants(t, in, clean, c)
	})
}

// citeTagRe is an opening or closing citation tag, written apart from the
// parser's own matcher.
var citeTagRe = regexp.MustCompile(`(?i)(?:<cairn-cite(?:[>\s/]|$)|</cairn-cite(?:[>\s]|$))`)

func citeCheckInvariants(t *testing.T, in, clean string, c Citation) {
	t.Helper()
	again, c2 := ParseCitations(clean)
	if again != clean || len(c2.Refs)+len(c2.Vault) > 0 {
		t.Fatalf("not idempotent:\n in  %q\n out %q\n out2 %q refs %v %v", in, clean, again, c2.Refs, c2.Vault)
	}
	if len(clean) > len(in) {
		t.Fatalf("clean is longer than the input: %q -> %q", in, clean)
	}
	// A tag may stay only as text: in code or in Codex's block.
	prot := citeProtected(clean)
	for _, m := range citeTagRe.FindAllStringIndex(clean, -1) {
		if _, ok := citeInside(prot, m[0]); !ok {
			t.Fatalf("a tag is left outside code at %d: %q -> %q", m[0], in, clean)
		}
	}
	if !strings.ContainsAny(in, "`~") && !strings.Contains(strings.ToLower(in), oaiName) && citeTagRe.MatchString(clean) {
		t.Fatalf("a tag is left in a text without code: %q -> %q", in, clean)
	}
	// Every ref is written in the input.
	for _, r := range c.Refs {
		if r.ID <= 0 || !strings.ContainsRune("nfepl", rune(r.Kind)) {
			t.Fatalf("bad ref %+v from %q", r, in)
		}
		prefix := string(rune(r.Kind)) + "#?"
		if r.Kind == 'n' {
			prefix = "(?:n#?|#)"
		}
		re := regexp.MustCompile(fmt.Sprintf(`(?i)%s0*%d(?:[^0-9]|$)`, prefix, r.ID))
		if !re.MatchString(in) {
			t.Fatalf("ref %s is not in the input %q", r, in)
		}
	}
	for _, v := range c.Vault {
		if v.Path == "" || strings.HasPrefix(v.Path, "/") || strings.HasPrefix(v.Path, "../") ||
			!strings.Contains(in, path.Base(v.Path)) || v.From > v.To || v.From < 0 {
			t.Fatalf("bad vault ref %+v from %q", v, in)
		}
	}
}

func citeRefStrings(c Citation) string {
	var s []string
	for _, r := range c.Refs {
		s = append(s, r.String())
	}
	return strings.Join(s, " ")
}

func citeVaultStrings(c Citation) string {
	var s []string
	for _, v := range c.Vault {
		s = append(s, v.String())
	}
	return strings.Join(s, " ")
}
