package distill

import (
	"strings"
	"unicode/utf8"
)

// Bounds on quoted words, so that no recap copies a large output.
const (
	maxQuote = 200
	maxCause = 180
	maxTask  = 90
)

// oneLine collapses all white space to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s to at most n runes, at a word boundary when one is near,
// marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:max(n-1, 1)]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)*2/3 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// firstSentence returns the first sentence of s, with the next ones while
// it is very short, clipped to n runes.
func firstSentence(s string, n int) string {
	s = oneLine(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', '!', '?':
			if i+1 == len(s) || s[i+1] == ' ' {
				if i >= 30 {
					return clip(s[:i+1], n)
				}
			}
		}
		if strings.HasPrefix(s[i:], "。") && i >= 12 {
			return clip(s[:i+len("。")], n)
		}
	}
	return clip(s, n)
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// code wraps a command in backticks, using a longer fence when it holds
// one.
func code(s string) string {
	s = oneLine(s)
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// quote wraps words in double quotes for a Markdown line.
func quote(s string) string { return "\"" + oneLine(s) + "\"" }
