package vault

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestGrep(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	long := strings.Repeat("é", 40000) + " needle at the end" // > 64 KiB
	write(t, v, "MEMORY.md", "# Handbook\nRun go test ./... before commit\nuse make lint\r\n")
	write(t, v, "skills/go.md", "prefer TABLE tests\nGo 1.26 a.b\nab\n")
	write(t, v, "rollout_summaries/long.md", "first\n"+long+"\n")
	write(t, v, "bin.dat", "go test\x00binary")
	if err := os.WriteFile(filepath.Join(v.Root(), ".git", "needle"), []byte("go test needle"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		write(t, v, fmt.Sprintf("many/%d.md", i), "repeat\nrepeat\n")
	}
	tests := []struct {
		name    string
		pattern string
		opts    GrepOptions
		want    []string // path:line
		code    memory.Code
	}{
		{name: "literal ignores case", pattern: "GO TEST", want: []string{"MEMORY.md:2"}},
		{name: "case sensitive", pattern: "table", opts: GrepOptions{CaseSensitive: true}, want: nil},
		{name: "case sensitive hit", pattern: "TABLE", opts: GrepOptions{CaseSensitive: true}, want: []string{"skills/go.md:1"}},
		{name: "literal dot is a dot", pattern: "a.b", want: []string{"skills/go.md:2"}},
		{name: "regex", pattern: `^a.?b$`, opts: GrepOptions{Regex: true}, want: []string{"skills/go.md:3"}},
		{name: "crlf line end trimmed", pattern: `lint$`, opts: GrepOptions{Regex: true}, want: []string{"MEMORY.md:3"}},
		{name: "long line", pattern: "needle", want: []string{"rollout_summaries/long.md:2"}},
		{name: "scoped to a folder", pattern: "go", opts: GrepOptions{Dir: "skills"}, want: []string{"skills/go.md:2"}},
		{name: "bounded", pattern: "repeat", opts: GrepOptions{Max: 3}, want: []string{"many/0.md:1", "many/0.md:2", "many/1.md:1"}},
		{name: "bad regex", pattern: "(", opts: GrepOptions{Regex: true}, code: memory.CodeInvalid},
		{name: "empty", pattern: "", code: memory.CodeInvalid},
		{name: "escaping folder", pattern: "x", opts: GrepOptions{Dir: "../"}, code: memory.CodeInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := v.Grep(ctx, tt.pattern, tt.opts)
			if tt.code != "" {
				if memory.ErrorCode(err) != tt.code {
					t.Fatalf("err = %v; want code %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var where []string
			for _, m := range got {
				where = append(where, fmt.Sprintf("%s:%d", m.Path, m.Line))
				if len(m.Text) > maxMatchText+len("…") {
					t.Errorf("match text is %d bytes", len(m.Text))
				}
			}
			if strings.Join(where, " ") != strings.Join(tt.want, " ") {
				t.Errorf("Grep(%q) = %v; want %v", tt.pattern, where, tt.want)
			}
		})
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc…"},
		{"ééé", 3, "é…"}, // never half a character
	}
	for _, tt := range tests {
		if got := cut(tt.in, tt.n); got != tt.want {
			t.Errorf("cut(%q, %d) = %q; want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
