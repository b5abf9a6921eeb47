package codex

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// object is one decoded JSON object whose fields are read leniently: a field
// of an unexpected JSON type reads as absent instead of failing the record,
// because Codex changes its payloads between releases.
type object map[string]json.RawMessage

// decodeObject decodes raw as a JSON object, or reports false.
func decodeObject(raw []byte) (object, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, false
	}
	return o, true
}

// str returns the field as a string, or "" when it is absent or not a string.
func (o object) str(key string) string {
	s, _ := o.strOK(key)
	return s
}

// strOK returns the field as a string and whether it was one.
func (o object) strOK(key string) (string, bool) {
	return asString(o[key])
}

// asString decodes raw if it is a JSON string.
func asString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// obj returns the field as an object.
func (o object) obj(key string) (object, bool) {
	return decodeObject(o[key])
}

// arr returns the field as an array of raw values.
func (o object) arr(key string) []json.RawMessage {
	raw := bytes.TrimSpace(o[key])
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil
	}
	return a
}

// int returns the field as an integer.
func (o object) int(key string) (int64, bool) {
	raw := bytes.TrimSpace(o[key])
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
	switch string(bytes.TrimSpace(o[key])) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// nonEmptyArray reports whether the field is an array with at least one item.
func (o object) nonEmptyArray(key string) bool {
	return len(o.arr(key)) > 0
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
