package codex

import (
	"bytes"
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// object is one JSON object whose fields are read leniently: a field of an
// unexpected JSON type reads as absent instead of failing the record,
// because Codex changes its payloads between releases. It reads the
// object's bytes in place (see scan.go), so it must not outlive them; a
// key written twice reads as its last value, as when decoded into a map.
type object struct {
	fields []field
	buf    *fieldBuf // where objects nested in this one list their fields
}

// field is one member: the key as written, quotes included, and the value.
type field struct {
	key, val []byte
}

// fieldBuf holds the fields of the objects read from one line, so that
// reading a line allocates nothing once the buffer has grown. Its objects
// are dead once it is reset for the next line.
type fieldBuf struct {
	fields []field
}

func (b *fieldBuf) reset() {
	clear(b.fields) // let the old line go
	b.fields = b.fields[:0]
}

// read lists the members of raw, a valid JSON object.
func (b *fieldBuf) read(raw []byte) object {
	start := len(b.fields)
	it := jsonscan.MembersOf(raw)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		b.fields = append(b.fields, field{key: k, val: v})
	}
	return object{fields: b.fields[start:len(b.fields):len(b.fields)], buf: b}
}

// decodeObject checks that raw is a JSON object and reads it, or reports
// false. buf may be nil.
func decodeObject(raw []byte, buf *fieldBuf) (object, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' || !jsonscan.Valid(raw) {
		return object{}, false
	}
	return objectAt(raw, buf)
}

// objectAt reads raw, a value already known to be valid JSON, as an
// object, or reports false if it is not one. buf may be nil.
func objectAt(raw []byte, buf *fieldBuf) (object, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return object{}, false
	}
	if buf == nil {
		buf = &fieldBuf{}
	}
	return buf.read(raw), true
}

// get returns the last value written under key, or nil.
func (o object) get(key string) []byte {
	for i := len(o.fields) - 1; i >= 0; i-- {
		if keyIs(o.fields[i].key, key) {
			return o.fields[i].val
		}
	}
	return nil
}

// keyIs reports whether a key as written decodes to name.
func keyIs(raw []byte, name string) bool {
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' || c >= utf8.RuneSelf {
			return jsonscan.Unquote(raw) == name
		}
	}
	return string(body) == name
}

// keys lists the object's keys, decoded, each once, sorted.
func (o object) keys() []string {
	out := make([]string, 0, len(o.fields))
	for _, f := range o.fields {
		out = append(out, jsonscan.Unquote(f.key))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// str returns the field as a string, or "" when it is absent or not a string.
func (o object) str(key string) string {
	s, _ := o.strOK(key)
	return s
}

// strOK returns the field as a string and whether it was one.
func (o object) strOK(key string) (string, bool) {
	return asString(o.get(key))
}

// asString decodes raw if it is a JSON string.
func asString(raw []byte) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	return jsonscan.Unquote(raw), true
}

// isEmptyString reports whether raw is the JSON string "".
func isEmptyString(raw []byte) bool {
	return len(raw) == 2 && raw[0] == '"' && raw[1] == '"'
}

// obj returns the field as an object.
func (o object) obj(key string) (object, bool) {
	return objectAt(o.get(key), o.buf)
}

// arr returns the field's items when it is an array.
func (o object) arr(key string) [][]byte {
	return arrayItems(o.get(key))
}

// arrayItems returns the items of raw, a valid JSON value, when it is an
// array.
func arrayItems(raw []byte) [][]byte {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var out [][]byte
	it := jsonscan.ElementsOf(raw)
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		out = append(out, v)
	}
	return out
}

// int returns the field as an integer.
func (o object) int(key string) (int64, bool) {
	raw := o.get(key)
	if len(raw) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(raw), 64)
		if ferr != nil || f != float64(int64(f)) {
			return 0, false
		}
		return int64(f), true
	}
	return n, true
}

// boolean returns the field as a bool.
func (o object) boolean(key string) (value, ok bool) {
	switch string(o.get(key)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// nonEmptyArray reports whether the field is an array with at least one item.
func (o object) nonEmptyArray(key string) bool {
	raw := o.get(key)
	if len(raw) == 0 || raw[0] != '[' {
		return false
	}
	it := jsonscan.ElementsOf(raw)
	_, ok := it.Next()
	return ok
}

// parseTime reads a rollout timestamp; a bad one reads as the zero time.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// reasonName makes a record type safe to use in a skip reason: a reason must
// never carry transcript text, so anything but a short identifier is hidden.
func reasonName(s string) string {
	if s == "" || len(s) > 40 {
		return "?"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./", r)) {
			return "?"
		}
	}
	return s
}
