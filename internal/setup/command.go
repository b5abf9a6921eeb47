package setup

import (
	"errors"
	"path/filepath"
	"strings"
)

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@%=", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// HookClientEnv is the assignment in front of every cairn-hook command:
// the Go runtime of a one-shot process that waits on a socket starts and
// exits sooner on one processor, without a second thread woken on another
// core (0.4–0.65 ms less a hook here, BENCHMARKS.md, hook, twelfth pass).
// The client runs hook commands through a shell, which applies it for
// free; cairn-hook does not pass it on to a cairn it starts.
const HookClientEnv = "GOMAXPROCS=1"

// hookCommand is the shell command a client runs for one cairn hook:
// `cairn-hook CLIENT EVENT` when the small client is installed (after
// HookClientEnv), `cairn hook CLIENT EVENT` otherwise. A home given
// explicitly to setup travels as a CAIRN_HOME assignment in front of it,
// since hook commands get the client's environment, not ours.
func hookCommand(o Options, client, event string) string {
	cairn, home := o.Cairn, o.Home
	cmd := shellQuote(cairn) + " hook " + client + " " + event
	if o.HookClient != "" {
		cmd = HookClientEnv + " " + shellQuote(o.HookClient) + " " + client + " " + event
	}
	if home != "" {
		cmd = "CAIRN_HOME=" + shellQuote(home) + " " + cmd
	}
	return cmd
}

// splitWords splits a shell command into words, honouring single and
// double quotes and backslashes. It is not a shell: it is enough to
// recognise the commands cairn writes and the ways a person would edit
// them.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// isAssignment reports whether w is a NAME=value word.
func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i, r := range w[:eq] {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// runsCairnHook reports whether a hook's words run `cairn hook CLIENT …`
// (the program is cairn by base name, or the very binary being set up) or
// `cairn-hook CLIENT …`, after any environment assignments or `env`.
func runsCairnHook(words []string, cairn string, clients ...string) bool {
	for len(words) > 0 && (isAssignment(words[0]) || words[0] == "env") {
		words = words[1:]
	}
	if len(words) < 3 {
		return false
	}
	prog, client := words[0], ""
	switch {
	case filepath.Base(prog) == "cairn-hook":
		client = words[1]
	case words[1] == "hook" && (prog == cairn || filepath.Base(prog) == "cairn" || filepath.Base(prog) == filepath.Base(cairn)):
		client = words[2]
	default:
		return false
	}
	for _, c := range clients {
		if client == c {
			return true
		}
	}
	return false
}

// isCairnCommand applies runsCairnHook to a command string.
func isCairnCommand(cmd, cairn string, clients ...string) bool {
	words, err := splitWords(cmd)
	return err == nil && runsCairnHook(words, cairn, clients...)
}
