package codex

import (
	"bytes"
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// requestMarker is the line Codex Desktop and the IDE extension put between
// the context they add and the words the user typed.
const requestMarker = "## My request for Codex:"

// Headings of the context blocks clients put above requestMarker.
var fileContextHeads = []string{
	"# Files mentioned by the user:",
	"# Context from my IDE setup:",
}

// splitRequest separates a client-added context block from the user's own
// words. Without the marker the whole message is the user's.
func splitRequest(msg string) (context, words string, flags memory.Provenance) {
	i := strings.Index(msg, requestMarker)
	if i < 0 {
		return "", strings.TrimSpace(msg), 0
	}
	context = strings.TrimSpace(msg[:i])
	words = strings.TrimSpace(msg[i+len(requestMarker):])
	for _, h := range fileContextHeads {
		if strings.Contains(context, h) {
			flags |= memory.FromFiles
		}
	}
	if strings.Contains(context, "<image") {
		flags |= memory.FromImages
	}
	return context, words, flags
}

// strip removes cairn's marker spans and reports whether any were there.
func strip(s string) (string, bool) {
	had := strings.Contains(s, memory.MarkerOpen) || strings.Contains(s, "<cairn-memory ")
	if !had {
		return s, false
	}
	return memory.StripMarked(s), true
}

// rawHasMarker reports whether the JSON string raw holds cairn's marker
// once decoded, without decoding it when it need not: the marker's
// characters are never the result of a short escape such as \n, so only a
// \u escape can hide one.
func rawHasMarker(raw []byte) bool {
	if bytes.Contains(raw, []byte(`\u`)) {
		return carriesMarker(jsonscan.Unquote(raw))
	}
	return bytes.Contains(raw, []byte(memory.MarkerOpen)) || bytes.Contains(raw, []byte("<cairn-memory "))
}

// carriesMarker reports whether s holds one of cairn's own blocks.
func carriesMarker(s string) bool {
	_, had := strip(s)
	return had
}
