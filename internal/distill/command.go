package distill

import (
	"strings"
)

// shellTools run a command line given in a "command" or "cmd" field, in
// the shapes Claude Code, Codex and OpenCode render tool input.
var shellTools = map[string]bool{
	"bash": true, "exec_command": true, "shell": true, "local_shell": true, "container.exec": true,
	"shell_command": true, "run_terminal_cmd": true, "execute_command": true, "run_command": true,
}

// editTools change files; their input names the path.
var editTools = map[string]bool{
	"edit": true, "write": true, "multiedit": true, "notebookedit": true, "apply_patch": true,
	"patch": true, "str_replace_editor": true, "create_file": true, "edit_file": true, "write_file": true,
	"replace": true, "str_replace_based_edit_tool": true,
}

// inputField reads one "key: value" field of a tool input rendered as
// lines; the value runs on until the next line that starts a field.
func inputField(text, key string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		v, ok := strings.CutPrefix(l, key+":")
		if !ok || (v != "" && v[0] != ' ') {
			continue
		}
		var b strings.Builder
		b.WriteString(strings.TrimSpace(v))
		quoted := quoteOpen(v)
		for _, m := range lines[i+1:] {
			if !quoted && startsField(m) {
				break
			}
			b.WriteString("\n" + m)
			quoted = quoteOpen(b.String())
		}
		return strings.TrimSpace(b.String())
	}
	return ""
}

// startsField reports whether a line looks like "key: value" with a plain
// identifier key at the start.
func startsField(l string) bool {
	k, _, ok := strings.Cut(l, ":")
	if !ok || k == "" || len(k) > 40 {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// quoteOpen reports whether a shell text ends inside a quoted word.
func quoteOpen(s string) bool {
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case c == q:
			q = 0
		case c == '\\' && q != '\'':
			i++
		}
	}
	return q != 0
}

// shellLine returns the command line of a shell tool call.
func shellLine(tool, input string) (string, bool) {
	if !shellTools[strings.ToLower(tool)] {
		return "", false
	}
	for _, k := range []string{"command", "cmd"} {
		if v := inputField(input, k); v != "" {
			return unwrapShell(v), true
		}
	}
	return "", false
}

// unwrapShell turns `bash -lc 'script'` into the script.
func unwrapShell(s string) string {
	w := words(s)
	if len(w) == 3 && (w[0] == "bash" || w[0] == "sh" || w[0] == "zsh") && strings.HasPrefix(w[1], "-") && strings.Contains(w[1], "c") {
		return w[2]
	}
	return s
}

// simpleCommands splits a command line at &&, ||, ;, | and newlines
// outside quotes, and returns each simple command's text, trimmed.
func simpleCommands(line string) []string {
	var out []string
	var b strings.Builder
	var q byte
	depth := 0 // $( … ) nesting, whose insides stay with their command
	flush := func() {
		if s := strings.TrimSpace(b.String()); s != "" {
			out = append(out, s)
		}
		b.Reset()
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case q != 0:
			if c == '\\' && q == '"' && i+1 < len(line) {
				b.WriteByte(c)
				i++
				c = line[i]
			} else if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '$' && i+1 < len(line) && line[i+1] == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == '&' && (i > 0 && line[i-1] == '>' || i+1 < len(line) && line[i+1] == '>'):
			// 2>&1, &>file: a redirection, not a separator
		case depth == 0 && (c == ';' || c == '\n' || c == '|' || c == '&'):
			if (c == '&' || c == '|') && i+1 < len(line) && line[i+1] == c {
				i++
			}
			flush()
			continue
		}
		b.WriteByte(c)
	}
	flush()
	return out
}

// words splits a simple command into shell words, quotes removed.
func words(s string) []string {
	var out []string
	var b strings.Builder
	var q byte
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
				continue
			}
			b.WriteByte(c)
		case c == '\'' || c == '"':
			q, in = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// multiTools take a subcommand that names what they do.
var multiTools = map[string]bool{
	"go": true, "git": true, "npm": true, "pnpm": true, "yarn": true, "bun": true, "deno": true,
	"cargo": true, "make": true, "docker": true, "kubectl": true, "gh": true, "glab": true, "uv": true,
	"poetry": true, "pip": true, "pip3": true, "dotnet": true, "mvn": true, "gradle": true, "./gradlew": true,
	"terraform": true, "helm": true, "bundle": true, "rake": true, "mix": true, "npx": true, "pnpx": true,
	"cmake": true, "just": true, "task": true, "brew": true, "apt": true, "apt-get": true, "rustup": true,
}

// commandKey names what a simple command does, without its arguments:
// "go test", "pnpm run lint", "pytest". Environment assignments, sudo and
// paths to the program are skipped. "" for an empty command.
func commandKey(cmd string) string {
	w := words(cmd)
	for len(w) > 0 && (strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "=") || w[0] == "sudo" || w[0] == "time" || w[0] == "env") {
		w = w[1:]
	}
	if len(w) == 0 {
		return ""
	}
	prog := w[0]
	if prog != "./gradlew" {
		if i := strings.LastIndexByte(prog, '/'); i >= 0 {
			prog = prog[i+1:]
		}
	}
	if prog == "python" || prog == "python3" {
		if len(w) >= 3 && w[1] == "-m" {
			return prog + " -m " + w[2]
		}
		return prog
	}
	if !multiTools[prog] {
		return prog
	}
	sub := ""
	for _, a := range w[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		sub = a
		break
	}
	if sub == "" {
		return prog
	}
	if (sub == "run" || sub == "exec") && (prog == "npm" || prog == "pnpm" || prog == "yarn" || prog == "bun" || prog == "uv" || prog == "poetry") {
		for _, a := range w[2:] {
			if !strings.HasPrefix(a, "-") && a != sub {
				return prog + " " + sub + " " + a
			}
		}
	}
	return prog + " " + sub
}

// readOnly lists programs and subcommands that only look: they teach no
// procedure and their failures end nothing.
var readOnly = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "less": true, "more": true, "pwd": true,
	"cd": true, "echo": true, "printf": true, "grep": true, "egrep": true, "rg": true, "ag": true,
	"find": true, "fd": true, "wc": true, "which": true, "whereis": true, "type": true, "file": true,
	"stat": true, "tree": true, "awk": true, "sort": true, "uniq": true, "diff": true, "true": true,
	"false": true, "sleep": true, "date": true, "whoami": true, "nl": true, "cut": true, "tr": true,
	"jq": true, "test": true, "[": true, "realpath": true, "dirname": true, "basename": true, "du": true,
	"df": true, "ps": true, "env": true, "export": true, "set": true, "source": true, "clear": true,
	"git status": true, "git diff": true, "git log": true, "git show": true, "git branch": true,
	"git remote": true, "git rev-parse": true, "git ls-files": true, "git blame": true, "git config": true,
	"git fetch": true, "git grep": true, "git stash": true, "go env": true, "go version": true,
	"go list": true, "go doc": true, "sed": true, "apply_patch": true, "gh api": true, "gh pr": true,
	"npm ls": true, "npm view": true, "pnpm ls": true, "node": true, "python": true, "python3": true,
}

// isReadOnly reports whether a simple command only looks. sed edits in
// place only with -i.
func isReadOnly(key, cmd string) bool {
	if key == "sed" {
		return !strings.Contains(" "+cmd, " -i")
	}
	return readOnly[key]
}

// testTools run tests whatever their arguments.
var testTools = map[string]bool{
	"pytest": true, "jest": true, "vitest": true, "rspec": true, "phpunit": true, "tox": true,
	"nox": true, "ctest": true, "python -m pytest": true, "python3 -m pytest": true, "mocha": true,
}

// isTest reports whether a command key runs tests.
func isTest(key string) bool {
	if testTools[key] {
		return true
	}
	for _, w := range strings.Fields(key) {
		if w == "test" || w == "tests" || strings.HasPrefix(w, "test:") || w == "check" {
			return true
		}
	}
	return false
}

// isGitBookkeeping reports whether a command only records work: a
// procedure made of these alone is no skill.
func isGitBookkeeping(key string) bool {
	switch key {
	case "git add", "git commit", "git push", "git pull", "git checkout", "git switch", "git merge",
		"git rebase", "git tag", "git restore", "git reset", "git rm", "git mv", "gh pr", "git cherry-pick":
		return true
	}
	return false
}

// generalize replaces a commit message with a placeholder, so the same
// step from two sessions reads the same.
func generalize(key, cmd string) string {
	if key != "git commit" {
		return cmd
	}
	w := words(cmd)
	var out []string
	for i := 0; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "-m" || a == "--message" || a == "-F":
			out = append(out, a, `"<message>"`)
			i++
		case strings.HasPrefix(a, "--message="):
			out = append(out, `--message="<message>"`)
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "m") && len(a) > 2:
			out = append(out, a, `"<message>"`)
			i++
		default:
			out = append(out, a)
		}
	}
	return strings.Join(out, " ")
}
