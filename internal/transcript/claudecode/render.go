package claudecode

import (
	"bytes"
	"encoding/json"
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
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	if err := renderValue(&b, dec, "", 0); err != nil {
		// Not valid JSON after all: keep the raw text rather than nothing.
		return string(raw)
	}
	return strings.TrimRight(b.String(), "\n")
}

// renderValue writes the next value of dec. Scalars are written inline by
// the caller's prefix; objects and arrays as indented lines.
func renderValue(b *strings.Builder, dec *json.Decoder, indent string, depth int) error {
	if depth >= maxRenderDepth {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		b.WriteString(indent + string(raw) + "\n")
		return nil
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return renderObject(b, dec, indent, depth)
		}
		return renderArray(b, dec, indent, depth)
	default:
		b.WriteString(indent + scalar(t) + "\n")
		return nil
	}
}

func renderObject(b *strings.Builder, dec *json.Decoder, indent string, depth int) error {
	empty := true
	for dec.More() {
		empty = false
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := kt.(string)
		if err := renderMember(b, dec, indent, key+":", depth); err != nil {
			return err
		}
	}
	if empty {
		b.WriteString(indent + "{}\n")
	}
	_, err := dec.Token() // '}'
	return err
}

func renderArray(b *strings.Builder, dec *json.Decoder, indent string, depth int) error {
	empty := true
	for dec.More() {
		empty = false
		if err := renderMember(b, dec, indent, "-", depth); err != nil {
			return err
		}
	}
	if empty {
		b.WriteString(indent + "[]\n")
	}
	_, err := dec.Token() // ']'
	return err
}

// renderMember writes one object member or array item: a scalar on the
// label's line, a container on the lines below it.
func renderMember(b *strings.Builder, dec *json.Decoder, indent, label string, depth int) error {
	if depth+1 >= maxRenderDepth {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		b.WriteString(indent + label + " " + string(raw) + "\n")
		return nil
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		b.WriteString(indent + label + " " + scalar(tok) + "\n")
		return nil
	}
	b.WriteString(indent + label + "\n")
	if d == '{' {
		return renderObject(b, dec, indent+"  ", depth+1)
	}
	return renderArray(b, dec, indent+"  ", depth+1)
}

func scalar(tok json.Token) string {
	switch v := tok.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		if v {
			return "true"
		}
		return "false"
	case nil:
		return "null"
	}
	return ""
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
