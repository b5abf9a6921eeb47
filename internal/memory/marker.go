package memory

import "strings"

// cairn wraps every block it injects in this one marker, so that the block
// can be recognized and stripped when a transcript that contains it is
// imported: memory must never recapture itself.
const (
	MarkerOpen  = "<cairn-memory>"
	MarkerClose = "</cairn-memory>"
	// markerPrefix also matches an opening tag with attributes.
	markerPrefix = "<cairn-memory"
)

// StripMarked removes every span inside cairn's marker. An opening marker
// with no close removes everything after it: a truncated block is still
// ours.
func StripMarked(s string) string {
	// Removing one span can join two halves into a new opening marker
	// ("<cairn-<cairn-memory>…</cairn-memory>memory>"), so repeat until
	// nothing changes.
	for strings.Contains(s, markerPrefix) {
		out := stripOnce(s)
		if out == s {
			break
		}
		s = out
	}
	return s
}

func stripOnce(s string) string {
	var b strings.Builder
	for {
		i := indexMarkerOpen(s)
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		rest := s[i:]
		j := strings.Index(rest, MarkerClose)
		if j < 0 {
			break
		}
		s = rest[j+len(MarkerClose):]
	}
	return strings.TrimSpace(b.String())
}

// indexMarkerOpen finds "<cairn-memory>" or "<cairn-memory " (attributes).
func indexMarkerOpen(s string) int {
	off := 0
	for {
		i := strings.Index(s[off:], markerPrefix)
		if i < 0 {
			return -1
		}
		k := off + i + len(markerPrefix)
		if k < len(s) && (s[k] == '>' || s[k] == ' ') {
			return off + i
		}
		off = k
	}
}
