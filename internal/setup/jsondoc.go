package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// A JSON value in the document model is one of: *Object, []any, string,
// json.Number, bool or nil. Numbers keep their literal text, so a file
// re-encoded by cairn says 1.50 where the user wrote 1.50. Objects and
// arrays also keep the source text they were decoded from, so a file
// written back after a change keeps the layout of everything cairn did
// not touch.

// Object is a JSON object that remembers the order of its keys.
type Object struct {
	keys []string
	vals map[string]any
	raw  []byte // the source text, until the object is changed
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{vals: map[string]any{}} }

// Get returns the value under k.
func (o *Object) Get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// Set puts v under k: in place when k exists, at the end otherwise.
func (o *Object) Set(k string, v any) {
	o.raw = nil
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// Delete removes k and reports whether it was there.
func (o *Object) Delete(k string) bool {
	if _, ok := o.vals[k]; !ok {
		return false
	}
	o.raw = nil
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
	return true
}

// Keys lists the keys in document order.
func (o *Object) Keys() []string { return append([]string(nil), o.keys...) }

// Len is the number of keys.
func (o *Object) Len() int { return len(o.keys) }

// maxDepth matches encoding/json's nesting limit, so a file it would
// reject is rejected here too, and deep input cannot exhaust the stack.
const maxDepth = 10000

// decodeJSON parses one JSON document into the model. A key that appears
// twice keeps its first position and its last value, which is what
// encoding/json would decode.
func decodeJSON(data []byte) (any, error) {
	v, _, err := decodeJSONRaw(data)
	return v, err
}

// rawArrays maps an array (by the address of its first element) to its
// source text. An array cairn changes is always a new slice, so a stale
// entry never matches it.
type rawArrays map[*any][]byte

type jsonDecoder struct {
	dec    *json.Decoder
	data   []byte
	arrays rawArrays
}

// decodeJSONRaw also returns the source text of the arrays.
func decodeJSONRaw(data []byte) (any, rawArrays, error) {
	d := &jsonDecoder{dec: json.NewDecoder(bytes.NewReader(data)), data: data, arrays: rawArrays{}}
	d.dec.UseNumber()
	v, err := d.value(0)
	if err != nil {
		return nil, nil, located(data, d.dec, err)
	}
	if _, err := d.dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after the top-level value")
		}
		return nil, nil, located(data, d.dec, err)
	}
	return v, d.arrays, nil
}

func (d *jsonDecoder) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("exceeded max nesting depth")
	}
	dec := d.dec
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	t, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	start := dec.InputOffset() - 1
	switch t {
	case '{':
		o := NewObject()
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := kt.(string)
			if !ok {
				return nil, fmt.Errorf("object key is %v, not a string", kt)
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			o.Set(k, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		o.raw = d.data[start:dec.InputOffset()]
		return o, nil
	case '[':
		a := []any{}
		for dec.More() {
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		if len(a) > 0 {
			d.arrays[&a[0]] = d.data[start:dec.InputOffset()]
		}
		return a, nil
	}
	return nil, fmt.Errorf("unexpected %q", rune(t))
}

// located adds the line and column of the decoder's position.
func located(data []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// encodeJSON writes v with one indent unit per level, like
// json.MarshalIndent, without escaping <, > and &.
func encodeJSON(v any, indent string) []byte {
	var b bytes.Buffer
	e := jsonEncoder{indent: indent}
	e.value(&b, v, 0)
	return b.Bytes()
}

// jsonEncoder renders the model. With keepRaw, an object or array that
// is unchanged (itself and everything in it) is written as its source
// text; the rest is laid out with indent.
type jsonEncoder struct {
	indent  string
	keepRaw bool
	arrays  rawArrays
}

// raw returns v's source text when it can stand for v.
func (e jsonEncoder) raw(v any) ([]byte, bool) {
	if !e.keepRaw {
		return nil, false
	}
	switch t := v.(type) {
	case *Object:
		if t.raw == nil {
			return nil, false
		}
		for _, k := range t.keys {
			if _, ok := e.raw(t.vals[k]); !ok && isContainer(t.vals[k]) {
				return nil, false
			}
		}
		return t.raw, true
	case []any:
		if len(t) == 0 {
			return nil, false
		}
		r, ok := e.arrays[&t[0]]
		if !ok {
			return nil, false
		}
		for _, x := range t {
			if _, ok := e.raw(x); !ok && isContainer(x) {
				return nil, false
			}
		}
		return r, true
	}
	return nil, false
}

func isContainer(v any) bool {
	switch v.(type) {
	case *Object, []any:
		return true
	}
	return false
}

func (e jsonEncoder) value(b *bytes.Buffer, v any, depth int) {
	if r, ok := e.raw(v); ok {
		b.Write(r)
		return
	}
	switch t := v.(type) {
	case *Object:
		if t.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, e.indent, depth+1)
			writeString(b, k)
			b.WriteString(": ")
			e.value(b, t.vals[k], depth+1)
		}
		newline(b, e.indent, depth)
		b.WriteByte('}')
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, e.indent, depth+1)
			e.value(b, x, depth+1)
		}
		newline(b, e.indent, depth)
		b.WriteByte(']')
	case string:
		writeString(b, t)
	case json.Number:
		b.WriteString(string(t))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	case int:
		b.WriteString(strconv.Itoa(t))
	default:
		panic(fmt.Sprintf("setup: %T is not a JSON document value", v))
	}
}

func newline(b *bytes.Buffer, indent string, depth int) {
	b.WriteByte('\n')
	for range depth {
		b.WriteString(indent)
	}
}

const hexDigits = "0123456789abcdef"

// writeString quotes s as encoding/json does (minus HTML escaping):
// control characters, quotes, backslashes and U+2028/U+2029 escaped,
// invalid UTF-8 replaced by U+FFFD.
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			b.WriteString(`\u202`)
			b.WriteByte(hexDigits[r&0xf])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

// equalJSON reports whether two model values are the same JSON value.
// Numbers compare by their text, so 1.0 and 1 differ: a rewrite is then
// needed to make the file say what cairn wants.
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case *Object:
		y, ok := b.(*Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for _, k := range x.keys {
			yv, ok := y.vals[k]
			if !ok || !equalJSON(x.vals[k], yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case int:
		return equalJSON(json.Number(strconv.Itoa(x)), b)
	}
	if y, ok := b.(int); ok {
		return equalJSON(a, json.Number(strconv.Itoa(y)))
	}
	return a == b
}

// jsonFile is a parsed JSON file and how to write it back the way it was
// laid out: the same indent unit, BOM and final newline.
type jsonFile struct {
	root    *Object
	arrays  rawArrays
	indent  string
	bom     bool
	newline bool
	// flat is a file written on one line: it is laid out anew rather
	// than mixing its one-line parts with indented ones.
	flat bool
}

var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// parseJSONFile reads a file that must hold a JSON object. An empty or
// all-blank file is an empty object.
func parseJSONFile(data []byte) (*jsonFile, error) {
	f := &jsonFile{indent: "  ", newline: true}
	if bytes.HasPrefix(data, utf8BOM) {
		f.bom = true
		data = data[len(utf8BOM):]
	}
	if len(bytes.TrimSpace(data)) == 0 {
		f.root = NewObject()
		return f, nil
	}
	v, arrays, err := decodeJSONRaw(data)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, errors.New("the top level is not a JSON object")
	}
	f.root, f.arrays = o, arrays
	f.indent = detectIndent(data)
	f.flat = !bytes.Contains(bytes.TrimSpace(data), []byte("\n"))
	f.newline = bytes.HasSuffix(data, []byte("\n"))
	return f, nil
}

// bytes encodes the file back.
func (f *jsonFile) bytes() []byte {
	var b bytes.Buffer
	if f.bom {
		b.Write(utf8BOM)
	}
	e := jsonEncoder{indent: f.indent, keepRaw: !f.flat, arrays: f.arrays}
	e.value(&b, f.root, 0)
	if f.newline {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// detectIndent returns the leading whitespace of the first indented line,
// or two spaces for a file written on one line.
func detectIndent(data []byte) string {
	for i := 0; i < len(data); i++ {
		if data[i] != '\n' {
			continue
		}
		j := i + 1
		for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
			j++
		}
		if j > i+1 && j < len(data) && data[j] != '\n' && data[j] != '\r' {
			return string(data[i+1 : j])
		}
	}
	return "  "
}
