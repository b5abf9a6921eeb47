package claudecode

import (
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
	"strings"
	"unicode/utf8"
)

// matchField returns the name in names that a member key (as written,
// quotes included) selects, the way encoding/json picks a struct field:
// the same name, else the same name but for case (Unicode simple
// folding); "" when there is none.
func matchField(key []byte, names []string) string {
	body := key[1 : len(key)-1]
	for _, c := range body {
		if c == '\\' || c >= utf8.RuneSelf {
			return matchDecoded(jsonscan.Unquote(key), names)
		}
	}
	for _, n := range names {
		if string(body) == n {
			return n
		}
	}
	for _, n := range names {
		if len(n) == len(body) && asciiEqualFold(body, n) {
			return n
		}
	}
	return ""
}

func matchDecoded(key string, names []string) string {
	for _, n := range names {
		if key == n {
			return n
		}
	}
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return n
		}
	}
	return ""
}

func asciiEqualFold(b []byte, s string) bool {
	for i := range len(b) {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// keyIs reports whether a key as written decodes to exactly name.
func keyIs(key []byte, name string) bool {
	body := key[1 : len(key)-1]
	for _, c := range body {
		if c == '\\' || c >= utf8.RuneSelf {
			return jsonscan.Unquote(key) == name
		}
	}
	return string(body) == name
}

// setString stores val in dst if it is a string; null and other types
// leave dst as it was.
func setString(dst *string, val []byte) {
	if val[0] == '"' {
		*dst = jsonscan.Unquote(val)
	}
}

// setBool stores val in dst if it is true or false.
func setBool(dst *bool, val []byte) {
	switch string(val) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	}
}

func isNull(val []byte) bool { return string(val) == "null" }

// hasPrefixDecoded reports whether the JSON string raw starts with prefix
// once decoded, decoding it only when its first bytes hold an escape or
// non-ASCII text.
func hasPrefixDecoded(raw []byte, prefix string) bool {
	body := raw[1:]
	n := min(len(prefix), len(body))
	for _, c := range body[:n] {
		if c == '\\' || c >= utf8.RuneSelf {
			return strings.HasPrefix(jsonscan.Unquote(raw), prefix)
		}
	}
	return string(body[:n]) == prefix
}
