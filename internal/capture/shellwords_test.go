package capture

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSimpleCommands(t *testing.T) {
	tests := []struct {
		in   string
		want [][]string
	}{
		{"git status", [][]string{{"git", "status"}}},
		{"cd /w && git commit -m 'a b' || echo no", [][]string{{"cd", "/w"}, {"git", "commit", "-m", "a b"}, {"echo", "no"}}},
		{`git commit -m "$(cat <<'EOF'` + "\nline one\n\nline two\nEOF\n)\"", [][]string{{"git", "commit", "-m", "$(cat <<'EOF'\nline one\n\nline two\nEOF\n)"}}},
		{`GIT_EDITOR=true sudo git push origin "my branch"`, [][]string{{"git", "push", "origin", "my branch"}}},
		{`echo "a \"q\" b" ; ls`, [][]string{{"echo", `a "q" b`}, {"ls"}}},
		{"a\\ b c", [][]string{{"a b", "c"}}},
		{"ps -ef | rg chrome", [][]string{{"ps", "-ef"}, {"rg", "chrome"}}},
		{"(cd x; make)", [][]string{{"cd", "x"}, {"make"}}},
		{`git commit -m ''`, [][]string{{"git", "commit", "-m", ""}}},
		{"'unterminated", [][]string{{"unterminated"}}},
		{"", nil},
	}
	for _, tc := range tests {
		if got := simpleCommands(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("simpleCommands(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestGitArgs(t *testing.T) {
	tests := []struct {
		in        []string
		sub, args string
		ok        bool
	}{
		{[]string{"git", "-C", "/w", "-c", "user.name=x", "--no-pager", "push", "origin"}, "push", "origin", true},
		{[]string{"/usr/bin/git", "commit", "-m", "x"}, "commit", "-m x", true},
		{[]string{"gitk"}, "", "", false},
		{[]string{"git", "--version"}, "", "", false},
	}
	for _, tc := range tests {
		sub, args, ok := gitArgs(tc.in)
		if sub != tc.sub || strings.Join(args, " ") != tc.args || ok != tc.ok {
			t.Errorf("gitArgs(%q) = %q %q %v", tc.in, sub, args, ok)
		}
	}
}

func TestFieldValue(t *testing.T) {
	in := "command: git commit -m \"$(cat <<'EOF'\nfix: x\n\nbody: not a key we know\nEOF\n)\"\ndescription: Commit\ntimeout: 1000"
	tests := []struct{ in, key, want string }{
		{in, "command", "git commit -m \"$(cat <<'EOF'\nfix: x\n\nbody: not a key we know\nEOF\n)\""},
		{"prompt: don't stop\ndescription: x", "prompt", "don't stop"},
		{in, "description", "Commit"},
		{in, "timeout", "1000"},
		{"cmd: ls -la\nworkdir: /w", "cmd", "ls -la"},
		{"command:\n  - bash\n  - -lc\n  - git push origin main\nworkdir: /w", "command", "git push origin main"},
		{"command:\n  - git\n  - status", "command", "git status"},
		{"commander: x\ncommand: y", "command", "y"},
		{"file_path: /a.go\ncontent: file_path: /b.go", "file_path", "/a.go"},
		{"nothing here", "command", ""},
	}
	for _, tc := range tests {
		if got := fieldValue(tc.in, tc.key); got != tc.want {
			t.Errorf("fieldValue(%q, %q) = %q, want %q", tc.in, tc.key, got, tc.want)
		}
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"One sentence here. Another one follows and runs long.", 30, "One sentence here."},
		{"words that run past the bound", 12, "words that…"},
		{"averyveryverylongword", 8, "averyve…"},
		{"我们决定用一个有大小上限的普通映射。然后继续工作吧", 20, "我们决定用一个有大小上限的普通映射。"},
		{"我们决定用一个有大小上限的普通映射", 8, "我们决定用一个…"},
		{"Dosya adı file.go olarak kalsın ve devam", 20, "Dosya adı file.go…"},
		{"x", 0, ""},
	}
	for _, tc := range tests {
		got := clip(tc.in, tc.n)
		if got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
		if utf8.RuneCountInString(got) > tc.n || !utf8.ValidString(got) {
			t.Errorf("clip(%q, %d) = %q: too long or not UTF-8", tc.in, tc.n, got)
		}
	}
}

func TestErrorLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Exit code 1\n\nnpm ERR! missing script: lint\n", "npm ERR! missing script: lint"},
		{"Chunk ID: 1\nWall time: 0 seconds\nProcess exited with code 2\nOriginal token count: 0\nOutput:\n", ""},
		{"Exit code 2\n-----\nsomething odd\n", "something odd"},
		{"Traceback (most recent call last):\n  File \"a.py\", line 1\nValueError: bad\n", "ValueError: bad"},
		{"\x1b[31merror\x1b[0m: linker failed", "error: linker failed"},
	}
	for _, tc := range tests {
		if got := errorLine(tc.in); got != tc.want {
			t.Errorf("errorLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzSimpleCommands(f *testing.F) {
	for _, s := range []string{"git commit -m 'x'", `a "b\" c" 'd`, "x\\", "a && b || c; d | e & f\ng", "$(cat <<'EOF'\nx\nEOF\n)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range simpleCommands(s) {
			if len(w) == 0 {
				t.Fatal("empty command")
			}
		}
		_ = fieldValue(s, "command")
		_ = errorLine(s)
	})
}
