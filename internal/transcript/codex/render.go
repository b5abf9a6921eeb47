package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
)

// maxRenderDepth bounds nesting when rendering tool input; deeper input is
// kept as the raw JSON text rather than recursing without limit.
const maxRenderDepth = 32

var errTooDeep = errors.New("json nested too deeply")

// node is a JSON value that keeps object keys in their original order, so a
// rendered tool call reads the way the model wrote it.
type node struct {
	kind  byte // 'o' object, 'a' array, 's' string, 'l' literal (number, bool, null)
	text  string
	keys  []string
	items []*node
}

// decodeOrdered reads one JSON value with key order preserved.
func decodeOrdered(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after json value")
	}
	return n, nil
}

func readNode(dec *json.Decoder, depth int) (*node, error) {
	if depth > maxRenderDepth {
		return nil, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			n := &node{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				val, err := readNode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key)
				n.items = append(n.items, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return n, nil
		case '[':
			n := &node{kind: 'a'}
			for dec.More() {
				val, err := readNode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return n, nil
		}
		return nil, errors.New("unexpected delimiter")
	case string:
		return &node{kind: 's', text: v}, nil
	case json.Number:
		return &node{kind: 'l', text: v.String()}, nil
	case bool:
		if v {
			return &node{kind: 'l', text: "true"}, nil
		}
		return &node{kind: 'l', text: "false"}, nil
	case nil:
		return &node{kind: 'l', text: "null"}, nil
	}
	return nil, errors.New("unexpected json token")
}

// renderValue writes n as YAML-like "key: value" lines. Strings are written
// verbatim, newlines and all, never as escaped JSON.
func renderValue(b *strings.Builder, n *node, indent string) {
	switch n.kind {
	case 'o':
		for i, k := range n.keys {
			renderField(b, indent+k+":", n.items[i], indent)
		}
	case 'a':
		for _, it := range n.items {
			if it.kind == 'o' && len(it.items) > 0 {
				// "- first: x" with the other keys aligned under it.
				var sub strings.Builder
				renderValue(&sub, it, indent+"  ")
				b.WriteString(indent + "- " + strings.TrimPrefix(sub.String(), indent+"  "))
				continue
			}
			renderField(b, indent+"-", it, indent)
		}
	default:
		b.WriteString(indent)
		b.WriteString(n.text)
		b.WriteByte('\n')
	}
}

// renderField writes one labelled value: scalars on the label's line,
// non-empty containers on the lines below it, indented.
func renderField(b *strings.Builder, label string, v *node, indent string) {
	b.WriteString(label)
	switch {
	case v.kind == 'o' && len(v.items) == 0:
		b.WriteString(" {}\n")
	case v.kind == 'a' && len(v.items) == 0:
		b.WriteString(" []\n")
	case v.kind == 'o' || v.kind == 'a':
		b.WriteByte('\n')
		renderValue(b, v, indent+"  ")
	default:
		b.WriteByte(' ')
		b.WriteString(v.text)
		b.WriteByte('\n')
	}
}

// renderArguments turns a function_call's arguments into readable text.
// Codex stores them as a JSON string holding JSON, so they are decoded twice;
// anything that does not decode is kept as it is.
func renderArguments(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	inner := []byte(raw)
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return string(raw)
		}
		inner = []byte(s)
	}
	return renderJSONText(inner)
}

// renderJSONText renders data if it is a JSON object or array, and returns
// it unchanged otherwise.
func renderJSONText(data []byte) string {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return string(data)
	}
	n, err := decodeOrdered(trimmed)
	if err != nil {
		return string(data)
	}
	var b strings.Builder
	renderValue(&b, n, "")
	return strings.TrimRight(b.String(), "\n")
}

// renderObject renders a decoded payload, leaving out bookkeeping keys.
func renderObject(o object, skip ...string) string {
	if len(o) == 0 {
		return ""
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		if !slices.Contains(skip, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		n, err := decodeOrdered(o[k])
		if err != nil {
			continue
		}
		renderField(&b, k+":", n, "")
	}
	return strings.TrimRight(b.String(), "\n")
}
