package model

import (
	"bytes"
	"encoding/json"
	"strings"
)

// decodeObject reads the one JSON object of an answer into v, refusing
// unknown fields. A model may wrap it in a code fence or add a sentence
// around it; the outermost object is taken.
func decodeObject(text string, v any) error {
	s := strings.TrimSpace(text)
	if i := strings.IndexByte(s, '{'); i > 0 {
		s = s[i:]
	}
	if j := strings.LastIndexByte(s, '}'); j >= 0 && j < len(s)-1 {
		s = s[:j+1]
	}
	if s == "" || s[0] != '{' {
		return Invalid("the answer holds no JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Invalid("the JSON does not match the schema: " + cut(err.Error(), 200))
	}
	return nil
}
