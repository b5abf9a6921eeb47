package claudecode

import (
	"bytes"
	"encoding/json"
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
	"strings"
)

// maxRenderDepth bounds the nesting rendered as lines; anything deeper is
// written as compact JSON.
const maxRenderDepth = 16

// renderInput renders a tool's JSON input as "key: value" lines with
// strings decoded, so that later redaction sees the real text (real
// newlines, no escapes). Keys keep their order; nested values are
// indented. Input that is not an object is rendered as its value.
func renderInput(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) || bytes.Equal(raw, []byte("{}")) {
		return ""
	}
	end, ok := jsonscan.ScanValue(raw, 0, 0)
	if !ok {
		// Not valid JSON after all: keep the raw text rather than nothing.
		return string(raw)
	}
	var b strings.Builder
	renderValue(&b, raw[:end], "", 0)
	return strings.TrimRight(b.String(), "\n")
}

// renderValue writes v, one valid JSON value. Scalars are written inline
// by the caller's prefix; objects and arrays as indented lines.
func renderValue(b *strings.Builder, v []byte, indent string, depth int) {
	if depth >= maxRenderDepth {
		b.WriteString(indent + string(v) + "\n")
		return
	}
	switch v[0] {
	case '{':
		renderObject(b, v, indent, depth)
	case '[':
		renderArray(b, v, indent, depth)
	default:
		b.WriteString(indent + scalar(v) + "\n")
	}
}

func renderObject(b *strings.Builder, v []byte, indent string, depth int) {
	empty := true
	it := jsonscan.MembersOf(v)
	for k, val, ok := it.Next(); ok; k, val, ok = it.Next() {
		empty = false
		renderMember(b, val, indent, jsonscan.Unquote(k)+":", depth)
	}
	if empty {
		b.WriteString(indent + "{}\n")
	}
}

func renderArray(b *strings.Builder, v []byte, indent string, depth int) {
	empty := true
	it := jsonscan.ElementsOf(v)
	for val, ok := it.Next(); ok; val, ok = it.Next() {
		empty = false
		renderMember(b, val, indent, "-", depth)
	}
	if empty {
		b.WriteString(indent + "[]\n")
	}
}

// renderMember writes one object member or array item: a scalar on the
// label's line, a container on the lines below it.
func renderMember(b *strings.Builder, v []byte, indent, label string, depth int) {
	if depth+1 >= maxRenderDepth {
		b.WriteString(indent + label + " " + string(v) + "\n")
		return
	}
	switch v[0] {
	case '{':
		b.WriteString(indent + label + "\n")
		renderObject(b, v, indent+"  ", depth+1)
	case '[':
		b.WriteString(indent + label + "\n")
		renderArray(b, v, indent+"  ", depth+1)
	default:
		b.WriteString(indent + label + " " + scalar(v) + "\n")
	}
}

// scalar is a string decoded, or a number, true, false or null as written.
func scalar(v []byte) string {
	if v[0] == '"' {
		return jsonscan.Unquote(v)
	}
	return string(v)
}

// resultText renders a tool_result's content (a string or blocks) as
// text, with images as placeholders. It reports the number of images and
// whether the result was Claude Code's interruption note.
func resultText(content any) (text string, images int, interrupted bool) {
	var parts []string
	switch c := content.(type) {
	case string:
		parts = append(parts, c)
	case []any:
		for _, item := range c {
			m, _ := item.(map[string]any)
			switch m["type"] {
			case "text":
				if s, ok := m["text"].(string); ok {
					parts = append(parts, s)
				}
			case "image":
				images++
				parts = append(parts, imagePlaceholder)
			}
		}
	}
	for _, p := range parts {
		if strings.HasPrefix(strings.TrimSpace(p), interruptPrefix) {
			interrupted = true
		}
	}
	return cleanTool(strings.Join(parts, "\n")), images, interrupted
}
