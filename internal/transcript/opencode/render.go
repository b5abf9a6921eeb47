package opencode

import (
	"bytes"
	"encoding/json"
	"strings"
)

// maxRenderDepth bounds how deep nested JSON is laid out as lines; deeper
// values are written as compact JSON on one line.
const maxRenderDepth = 24

// renderJSON lays a decoded JSON value out as "key: value" lines: keys in
// their original order, strings decoded (real newlines, no escapes, so that
// redaction sees the text as the tool saw it), nested objects and arrays
// indented by two spaces, array items prefixed with "- ". An empty value
// renders as "".
func renderJSON(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	tok, err := dec.Token()
	if err != nil {
		return ""
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			err = writeObject(&b, dec, "", 1)
		} else {
			err = writeArray(&b, dec, "", 1)
		}
	default:
		b.WriteString(scalarText(tok))
	}
	if err != nil {
		// Only reachable with invalid JSON, which a RawMessage never holds.
		return ""
	}
	return strings.TrimRight(b.String(), "\n")
}

func writeObject(b *strings.Builder, dec *json.Decoder, indent string, depth int) error {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if err := writeEntry(b, dec, indent, key+":", depth); err != nil {
			return err
		}
	}
	_, err := dec.Token() // the closing brace
	return err
}

func writeArray(b *strings.Builder, dec *json.Decoder, indent string, depth int) error {
	for dec.More() {
		if err := writeEntry(b, dec, indent, "-", depth); err != nil {
			return err
		}
	}
	_, err := dec.Token() // the closing bracket
	return err
}

// writeEntry writes one labelled value: a scalar on the label's line, a
// container on the lines below it.
func writeEntry(b *strings.Builder, dec *json.Decoder, indent, label string, depth int) error {
	if depth >= maxRenderDepth {
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
		b.WriteString(indent + label + " " + scalarText(tok) + "\n")
		return nil
	}
	if !dec.More() {
		if _, err := dec.Token(); err != nil {
			return err
		}
		if d == '{' {
			b.WriteString(indent + label + " {}\n")
		} else {
			b.WriteString(indent + label + " []\n")
		}
		return nil
	}
	b.WriteString(indent + label + "\n")
	if d == '{' {
		return writeObject(b, dec, indent+"  ", depth+1)
	}
	return writeArray(b, dec, indent+"  ", depth+1)
}

func scalarText(tok json.Token) string {
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
	}
	return "null"
}

// renderOutput renders a tool's output: a JSON string is the text itself
// (the real shape), anything else is laid out like an input.
func renderOutput(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return ""
	}
	return renderJSON(raw)
}
