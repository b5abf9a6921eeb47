package capture

import "strings"

// simpleCommands splits a shell command line into its simple commands,
// each a list of words with quotes removed. It knows just enough shell
// for the tool rules: single and double quotes, backslash escapes, and the
// separators ; & | && || ( ) and newlines outside quotes. A newline inside
// quotes (a commit message, a heredoc in "$(cat <<'EOF' …)") stays in its
// word. Leading variable assignments and wrappers (sudo, env, time,
// command, nohup) are dropped.
func simpleCommands(line string) [][]string {
	var (
		out   [][]string
		words []string
		word  strings.Builder
		inW   bool // a word has started, possibly empty ("")
	)
	endWord := func() {
		if inW {
			words = append(words, word.String())
			word.Reset()
			inW = false
		}
	}
	endCmd := func() {
		endWord()
		if w := trimWrappers(words); len(w) > 0 {
			out = append(out, w)
		}
		words = nil
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case '\'':
			inW = true
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				word.WriteString(line[i+1:])
				i = len(line)
				break
			}
			word.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case '"':
			inW = true
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`\n", line[i+1]) >= 0 {
					i++
				}
				word.WriteByte(line[i])
			}
		case '\\':
			inW = true
			if i+1 < len(line) {
				i++
				if line[i] != '\n' {
					word.WriteByte(line[i])
				}
			}
		case ' ', '\t', '\r':
			endWord()
		case ';', '&', '|', '\n', '(', ')':
			endCmd()
		default:
			inW = true
			word.WriteByte(c)
		}
	}
	endCmd()
	return out
}

// trimWrappers drops leading assignments (FOO=bar) and command wrappers.
func trimWrappers(w []string) []string {
	for len(w) > 0 {
		switch {
		case isAssignment(w[0]):
			w = w[1:]
		case w[0] == "sudo" || w[0] == "env" || w[0] == "time" || w[0] == "command" || w[0] == "nohup" || w[0] == "exec":
			w = w[1:]
		default:
			return w
		}
	}
	return w
}

func isAssignment(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// gitArgs returns the subcommand and its arguments when w runs git, after
// git's own options (-C dir, -c k=v, --no-pager, …).
func gitArgs(w []string) (sub string, args []string, ok bool) {
	if len(w) == 0 || (w[0] != "git" && !strings.HasSuffix(w[0], "/git")) {
		return "", nil, false
	}
	for i := 1; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--exec-path":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, w[i+1:], true
		}
	}
	return "", nil, false
}

// commandRuns reports whether w runs one of the named programs, by base
// name ("/usr/bin/rg" runs rg).
func commandRuns(w []string, names ...string) bool {
	if len(w) == 0 {
		return false
	}
	base := w[0]
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	for _, n := range names {
		if base == n {
			return true
		}
	}
	return false
}

// optionValue returns the value of a long or short option in args:
// "--title x", "--title=x", "-t x".
func optionValue(args []string, long, short string) (string, bool) {
	for i, a := range args {
		switch {
		case a == long || (short != "" && a == short):
			if i+1 < len(args) {
				return args[i+1], true
			}
		case strings.HasPrefix(a, long+"="):
			return a[len(long)+1:], true
		}
	}
	return "", false
}
