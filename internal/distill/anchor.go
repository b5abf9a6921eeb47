package distill

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// Anchor is what a generated line's trailing comment names: the statements
// it rests on and, for a line that rests on none, its key.
type Anchor struct {
	IDs  []int64
	Keys []string
}

// Empty reports whether the anchor names nothing.
func (a Anchor) Empty() bool { return len(a.IDs) == 0 && len(a.Keys) == 0 }

// String renders the anchor as a trailing comment, "<!-- s:12,40 k:1a2b3c4d -->",
// or "" when it names nothing. IDs and keys keep their order.
func (a Anchor) String() string {
	if a.Empty() {
		return ""
	}
	var b strings.Builder
	b.WriteString("<!--")
	if len(a.IDs) > 0 {
		b.WriteString(" s:")
		for i, id := range a.IDs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatInt(id, 10))
		}
	}
	if len(a.Keys) > 0 {
		b.WriteString(" k:")
		b.WriteString(strings.Join(a.Keys, ","))
	}
	b.WriteString(" -->")
	return b.String()
}

// tokens lists the anchor's ids and keys as "s:12", "k:1a2b3c4d".
func (a Anchor) tokens() []string {
	out := make([]string, 0, len(a.IDs)+len(a.Keys))
	for _, id := range a.IDs {
		out = append(out, "s:"+strconv.FormatInt(id, 10))
	}
	for _, k := range a.Keys {
		out = append(out, "k:"+k)
	}
	return out
}

// ParseAnchor splits a line into its text and its trailing anchor. ok is
// false when the line does not end in a well-formed anchor (any other
// comment, or none); body is then the whole line, trimmed on the right.
// It accepts any input.
func ParseAnchor(line string) (body string, a Anchor, ok bool) {
	line = strings.TrimRight(line, " \t\r\n")
	if !strings.HasSuffix(line, "-->") {
		return line, Anchor{}, false
	}
	open := strings.LastIndex(line, "<!--")
	if open < 0 || open+4 > len(line)-3 {
		return line, Anchor{}, false
	}
	fields := strings.Fields(line[open+4 : len(line)-3])
	if len(fields) == 0 {
		return line, Anchor{}, false
	}
	for _, f := range fields {
		name, val, found := strings.Cut(f, ":")
		if !found || val == "" {
			return line, Anchor{}, false
		}
		for _, v := range strings.Split(val, ",") {
			switch name {
			case "s":
				id, err := strconv.ParseInt(v, 10, 64)
				if err != nil || id <= 0 {
					return line, Anchor{}, false
				}
				if !slices.Contains(a.IDs, id) {
					a.IDs = append(a.IDs, id)
				}
			case "k":
				if !isKey(v) {
					return line, Anchor{}, false
				}
				if !slices.Contains(a.Keys, v) {
					a.Keys = append(a.Keys, v)
				}
			default:
				return line, Anchor{}, false
			}
		}
	}
	return strings.TrimRight(line[:open], " \t"), a, true
}

// isKey reports whether s is a line key: 4 to 16 lowercase hex digits.
func isKey(s string) bool {
	if len(s) < 4 || len(s) > 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// lineKey is the key of a line that rests on no statement: 8 hex digits of
// the hash of its normalized text, so the same line from two sessions (or
// two passes) gets the same key.
func lineKey(text string) string {
	sum := sha256.Sum256([]byte(norm(text)))
	return hex.EncodeToString(sum[:4])
}

// withAnchor appends the anchor to a line of text.
func withAnchor(text string, a Anchor) string {
	if s := a.String(); s != "" {
		return text + " " + s
	}
	return text
}
