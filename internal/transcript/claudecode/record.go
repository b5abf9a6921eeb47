package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// record is one transcript line. Decoding is lenient: a field of an
// unexpected type stays empty instead of failing the whole line.
type record struct {
	Type              string     `json:"type"`
	Subtype           string     `json:"subtype"`
	UUID              string     `json:"uuid"`
	ParentUUID        parentRef  `json:"parentUuid"`
	LogicalParentUUID string     `json:"logicalParentUuid"`
	SessionID         string     `json:"sessionId"`
	AgentID           string     `json:"agentId"`
	IsSidechain       bool       `json:"isSidechain"`
	IsMeta            bool       `json:"isMeta"`
	IsCompactSummary  bool       `json:"isCompactSummary"`
	IsAPIError        bool       `json:"isApiErrorMessage"`
	Cwd               string     `json:"cwd"`
	Version           string     `json:"version"`
	GitBranch         string     `json:"gitBranch"`
	Timestamp         string     `json:"timestamp"`
	Message           *message   `json:"message"`
	ToolUseResult     useResult  `json:"toolUseResult"`
	Summary           string     `json:"summary"`
	LeafUUID          string     `json:"leafUuid"`
	AITitle           string     `json:"aiTitle"`
	CustomTitle       string     `json:"customTitle"`
	Attachment        attachment `json:"attachment"`
}

// message is the API message inside a user or assistant line.
type message struct {
	ID         string          `json:"id"`
	Model      string          `json:"model"`
	Content    json.RawMessage `json:"content"`
	StopReason string          `json:"stop_reason"`
}

// block is one content block. Image data and thinking text are not
// decoded: they are never stored.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	// Content of a tool result: a string or a list of blocks as decoded
	// maps, read in the same pass as the block itself.
	Content any  `json:"content"`
	IsError bool `json:"is_error"`
}

// useResult keeps the few facts cairn needs from toolUseResult, which
// often repeats a whole file and is not worth holding in memory.
type useResult struct {
	Rejected    bool
	Interrupted bool
	File        bool
}

// UnmarshalJSON never fails: an error here would abort the whole line.
func (u *useResult) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	switch b[0] {
	case '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			u.Rejected = strings.HasPrefix(s, "User rejected")
		}
	case '{':
		var v struct {
			Interrupted bool `json:"interrupted"`
			File        *struct {
				FilePath string `json:"filePath"`
			} `json:"file"`
		}
		_ = json.Unmarshal(b, &v)
		u.Interrupted = v.Interrupted
		u.File = v.File != nil
	}
	return nil
}

// attachment keeps the kind of an attachment record and whether hook
// context in it carried cairn's marker; its content is never stored.
type attachment struct {
	Type   string
	Marked bool
}

// UnmarshalJSON never fails, like useResult's.
func (a *attachment) UnmarshalJSON(b []byte) error {
	var head struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(b, &head)
	a.Type = head.Type
	a.Marked = bytes.Contains(b, []byte("<cairn-memory")) || bytes.Contains(b, []byte(`\u003ccairn-memory`))
	return nil
}

// decodeRecord parses one line. Type mismatches inside the line are
// tolerated; only malformed JSON is an error.
func decodeRecord(line []byte) (*record, error) {
	var r record
	err := json.Unmarshal(line, &r)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) {
		return nil, err
	}
	return &r, nil
}

// time parses the line's timestamp; a bad one yields the zero time.
func (r *record) time() time.Time {
	if r.Timestamp == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, r.Timestamp)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// parentRef is parentUuid, remembering whether the field was present: a
// line that says "no parent" is a root, a line that says nothing is not
// placed in any tree.
type parentRef struct {
	UUID string
	Set  bool
}

// UnmarshalJSON never fails; a parent that is not a string is no parent.
func (p *parentRef) UnmarshalJSON(b []byte) error {
	p.Set = true
	_ = json.Unmarshal(b, &p.UUID)
	return nil
}

// parentKey is the line this one continues: its parent, or across a
// compaction boundary its logical parent.
func (r *record) parentKey() string {
	if r.ParentUUID.UUID != "" {
		return r.ParentUUID.UUID
	}
	return r.LogicalParentUUID
}

// isRoot reports whether the line declares that it starts a conversation.
func (r *record) isRoot() bool {
	return r.ParentUUID.Set && r.parentKey() == ""
}

// isCompactBoundary reports whether the line marks a compaction.
func (r *record) isCompactBoundary() bool {
	return r.Type == "system" && r.Subtype == "compact_boundary"
}

// decodeContent returns a message's content as either a string or blocks.
func decodeContent(raw json.RawMessage) (text string, blocks []block, isString bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", nil, false
	}
	switch raw[0] {
	case '"':
		if json.Unmarshal(raw, &text) == nil {
			return text, nil, true
		}
	case '[':
		// A block with a field of the wrong type keeps its other fields;
		// an item that is not an object is an empty block, ignored later.
		err := json.Unmarshal(raw, &blocks)
		var typeErr *json.UnmarshalTypeError
		if err != nil && !errors.As(err, &typeErr) {
			return "", nil, false
		}
	}
	return "", blocks, false
}
