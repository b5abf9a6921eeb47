package vault

import (
	"errors"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func TestCleanPath(t *testing.T) {
	tests := []struct {
		in        string
		allowRoot bool
		want      string // "" means refused
	}{
		{"MEMORY.md", false, "MEMORY.md"},
		{"skills/go/testing.md", false, "skills/go/testing.md"},
		{"./skills//x.md", false, "skills/x.md"},
		{"skills/", true, "skills"},
		{"", true, "."},
		{".", true, "."},
		{"", false, ""},
		{".", false, ""},
		{"notes/ünïcode 笔记.md", false, "notes/ünïcode 笔记.md"},
		{".gitignore", false, ".gitignore"},
		{"a.b/c", false, "a.b/c"},
		{"../x", false, ""},
		{"..", true, ""},
		{"a/../../x", false, ""},
		{"a/../b", false, ""}, // any .. is refused, even one that stays inside
		{"/etc/x", false, ""},
		{"//etc/x", false, ""},
		{"..\\x", false, ""},
		{"a\\b", false, ""},
		{"C:\\x", false, ""},
		{"C:/x", false, ""},
		{"file.md:stream", false, ""},
		{"a\x00b", false, ""},
		{"a\nb", false, ""},
		{"a\x7fb", false, ""},
		{"\xff\xfe", false, ""},
		{".git", false, ""},
		{".git/config", false, ""},
		{".GIT/hooks/pre-commit", false, ""},
		{"skills/.Git/x", false, ""},
		{"GIT~1/config", false, ""},
		{".git./config", false, ""},
		{"x. ", false, ""},
		{"...", false, ""},
		{"dir./x", false, ""},
		{tmpPrefix + "1234", false, ""},
		{"skills/.DS_Store", false, ""},
		{strings.Repeat("n", maxNameLen), false, strings.Repeat("n", maxNameLen)},
		{strings.Repeat("n", maxNameLen+1), false, ""},
		{strings.Repeat("a/", maxPathLen/2+1), false, ""},
	}
	for _, tt := range tests {
		got, err := cleanPath(tt.in, tt.allowRoot)
		if tt.want == "" {
			if err == nil {
				t.Errorf("cleanPath(%q) = %q; want a refusal", tt.in, got)
			} else if !errors.Is(err, ErrUnsafePath) {
				t.Errorf("cleanPath(%q): %v does not wrap ErrUnsafePath", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("cleanPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestRefusalMessageIsBounded(t *testing.T) {
	_, err := cleanPath(strings.Repeat("x/", 5000), false)
	if err == nil || len(err.Error()) > 200 {
		t.Errorf("refusal of a huge path: %d bytes of message", len(err.Error()))
	}
}

// FuzzCleanPath checks the property the vault relies on: an accepted path
// is canonical and, joined to any root, stays beneath it.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{
		"MEMORY.md", "../x", "/etc/x", "a/../../x", "..\\x", "a\x00b", ".git/config",
		"./a//b/", "C:x", "é/ü", "....//..", ". /x", "a/./b", strings.Repeat("a/", 300),
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	root := filepath.FromSlash("/srv/cairn/vault")
	f.Fuzz(func(t *testing.T, in string, allowRoot bool) {
		got, err := cleanPath(in, allowRoot)
		if err != nil {
			if !errors.Is(err, ErrUnsafePath) {
				t.Fatalf("cleanPath(%q): %v does not wrap ErrUnsafePath", in, err)
			}
			return
		}
		if got == "." {
			if !allowRoot {
				t.Fatalf("cleanPath(%q) named the root without allowRoot", in)
			}
			return
		}
		if path.Clean(got) != got || strings.HasPrefix(got, "/") || strings.ContainsAny(got, "\\:\x00") {
			t.Fatalf("cleanPath(%q) = %q is not canonical", in, got)
		}
		for _, c := range strings.Split(got, "/") {
			if c == ".." || c == "." || c == "" || strings.EqualFold(c, ".git") {
				t.Fatalf("cleanPath(%q) = %q keeps component %q", in, got, c)
			}
		}
		rel, err := filepath.Rel(root, filepath.Join(root, filepath.FromSlash(got)))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			t.Fatalf("cleanPath(%q) = %q escapes the root (%q)", in, got, rel)
		}
	})
}
