package codex

import (
	"bytes"
	"errors"
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
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
	if !jsonscan.Valid(data) {
		return nil, errors.New("invalid json")
	}
	i := jsonscan.SkipSpace(data, 0)
	return readNode(data[i:jsonscan.ValueEnd(data, i)], 0)
}

// readNode builds the node for raw, one valid JSON value.
func readNode(raw []byte, depth int) (*node, error) {
	if depth > maxRenderDepth {
		return nil, errTooDeep
	}
	switch raw[0] {
	case '{':
		n := &node{kind: 'o'}
		it := jsonscan.MembersOf(raw)
		for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
			val, err := readNode(v, depth+1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, jsonscan.Unquote(k))
			n.items = append(n.items, val)
		}
		return n, nil
	case '[':
		n := &node{kind: 'a'}
		it := jsonscan.ElementsOf(raw)
		for v, ok := it.Next(); ok; v, ok = it.Next() {
			val, err := readNode(v, depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, val)
		}
		return n, nil
	case '"':
		return &node{kind: 's', text: jsonscan.Unquote(raw)}, nil
	}
	// A number as written, or true, false, null.
	return &node{kind: 'l', text: string(raw)}, nil
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
// anything that does not decode is kept as it is. raw is valid JSON, or
// empty when absent.
func renderArguments(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	inner := raw
	if raw[0] == '"' {
		inner = []byte(jsonscan.Unquote(raw))
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
	if len(o.fields) == 0 {
		return ""
	}
	var b strings.Builder
	for _, k := range o.keys() {
		if slices.Contains(skip, k) {
			continue
		}
		n, err := decodeOrdered(o.get(k))
		if err != nil {
			continue
		}
		renderField(&b, k+":", n, "")
	}
	return strings.TrimRight(b.String(), "\n")
}
