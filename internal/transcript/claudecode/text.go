package claudecode

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// noiseTags are harness spans in user text: command echoes, local command
// output, background-task notices and shell-mode (!) echoes. The human's
// request is what is left.
var noiseTags = []string{
	"system-reminder",
	"task-notification",
	"local-command-stdout",
	"local-command-stderr",
	"local-command-caveat",
	"command-message",
	"command-name",
	"command-args",
	"command-contents",
	"bash-input",
	"bash-stdout",
	"bash-stderr",
}

// imagePlaceholder stands in for an image; the data is never stored.
const imagePlaceholder = "[image]"

// interruptPrefix starts Claude Code's "[Request interrupted by user]" and
// "[Request interrupted by user for tool use]" notes.
const interruptPrefix = "[Request interrupted by user"

// isInterrupt reports whether s is one of Claude Code's interruption notes.
func isInterrupt(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, interruptPrefix) && strings.HasSuffix(s, "]")
}

// stripMarked removes cairn's marker spans until none is left: removing
// one span can join the halves of another around it into a new one.
// Every pass that changes s shortens it, so the loop ends.
func stripMarked(s string) string {
	for {
		t := memory.StripMarked(s)
		if t == s {
			return s
		}
		s = t
	}
}

// hasMarker reports whether s holds cairn's marker.
func hasMarker(s string) bool {
	return strings.Contains(s, "<cairn-memory")
}

// cleanHuman returns the human's own words in a piece of user text, the
// slash command it invokes ("/name args") if any, and whether it was an
// interruption note.
func cleanHuman(raw string) (text, command string, interrupted bool) {
	s := stripMarked(raw)
	if isInterrupt(s) {
		return "", "", true
	}
	if name := strings.TrimSpace(tagInner(s, "command-name")); name != "" {
		if !strings.HasPrefix(name, "/") {
			name = "/" + name
		}
		command = name
		if args := strings.TrimSpace(tagInner(s, "command-args")); args != "" {
			command += " " + args
		}
	}
	for _, tag := range noiseTags {
		s = stripSpans(s, tag)
	}
	return strings.TrimSpace(s), command, false
}

// cleanTool removes cairn's marker and Claude Code's reminders from tool
// output and assistant text. Only blank lines around the text go: leading
// spaces may be part of it (numbered file listings).
func cleanTool(s string) string {
	s = stripSpans(stripMarked(s), "system-reminder")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return strings.TrimRight(trimBlankLines(s), " \t\r\n")
}

// trimBlankLines drops the whitespace-only lines that start s.
func trimBlankLines(s string) string {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			return s
		}
		s = s[i+1:]
	}
}

// stripSpans removes every <tag>…</tag> span (the opening tag may carry
// attributes). An opening tag with no close removes the rest: a truncated
// span is still noise.
func stripSpans(s, tag string) string {
	open, closing := "<"+tag, "</"+tag+">"
	if !strings.Contains(s, open) {
		return s
	}
	var b strings.Builder
	for {
		i := indexOpen(s, open)
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		rest := s[i:]
		j := strings.Index(rest, closing)
		if j < 0 {
			break
		}
		s = rest[j+len(closing):]
	}
	return b.String()
}

// indexOpen finds an opening tag "<tag>" or "<tag " and not a longer name
// that merely starts the same way.
func indexOpen(s, open string) int {
	off := 0
	for {
		i := strings.Index(s[off:], open)
		if i < 0 {
			return -1
		}
		k := off + i + len(open)
		if k < len(s) && (s[k] == '>' || s[k] == ' ' || s[k] == '\n') {
			return off + i
		}
		off = k
	}
}

// tagInner returns the text inside the first <tag>…</tag>, or "".
func tagInner(s, tag string) string {
	i := indexOpen(s, "<"+tag)
	if i < 0 {
		return ""
	}
	rest := s[i:]
	gt := strings.IndexByte(rest, '>')
	if gt < 0 {
		return ""
	}
	rest = rest[gt+1:]
	j := strings.Index(rest, "</"+tag+">")
	if j < 0 {
		return ""
	}
	return rest[:j]
}

// mentionsFile reports whether the request names a file with @path, which
// makes Claude Code attach that file's contents.
func mentionsFile(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '@' || (i > 0 && !isSpace(s[i-1])) {
			continue
		}
		j := i + 1
		pathLike := false
		for j < len(s) && !isSpace(s[j]) {
			if s[j] == '/' || s[j] == '.' {
				pathLike = true
			}
			j++
		}
		if pathLike && j > i+2 {
			return true
		}
	}
	return false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '(' || c == '"' || c == '\''
}
