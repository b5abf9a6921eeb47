package capture

import (
	"strconv"
	"strings"
)

// envelope lines are the clients' own framing of a tool's output, not
// the tool's words: Codex's chunk header and Claude Code's exit line.
var envelope = []string{
	"Chunk ID:", "Wall time:", "Process exited with code", "Process running with session ID",
	"Original token count:", "Output:", "Total output lines:", "Exit code ",
}

// errorWords mark the line that says what went wrong.
var errorWords = lazyRE(`(?i)\b(?:error|err!|fatal|failed|failure|fail|panic|exception|not found|no such file|denied|cannot|can't|could not|couldn't|unable|invalid|refused|undefined|unexpected|missing|timed out|timeout|not permitted|conflict|aborted)\b`)

// ansi matches terminal colour and cursor sequences.
var ansi = lazyRE("\x1b\\[[0-9;?]*[A-Za-z]")

// errorLine picks the first meaningful error line of a failed call's
// output: the first line that names an error, else the first line with
// any words; a Python traceback gives its last line, the exception. The
// clients' framing lines are skipped. Empty when the output says nothing.
func errorLine(out string) string {
	var lines []string
	for line := range strings.Lines(ansi.ReplaceAllString(out, "")) {
		line = strings.TrimSpace(line)
		if line == "" || isEnvelope(line) || !hasWordChar(line) {
			continue
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return ""
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "Traceback (most recent call last)") {
			return lines[len(lines)-1]
		}
		if errorWords.MatchString(l) {
			return lines[i]
		}
	}
	return lines[0]
}

func isEnvelope(line string) bool {
	for _, e := range envelope {
		if strings.HasPrefix(line, e) {
			return true
		}
	}
	return false
}

// hasWordChar reports whether a line holds a letter or digit: rules of
// dashes or box drawing say nothing.
func hasWordChar(s string) bool {
	for _, r := range s {
		if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f && r < 0x2500 || r > 0x259f {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }
