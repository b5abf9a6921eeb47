package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
	"time"
)

// record is one transcript line. Decoding is lenient: a field of an
// unexpected type stays empty instead of failing the whole line. Members
// are matched to fields the way encoding/json matches struct fields (exact
// name, else ignoring case), and the last of a repeated member wins.
type record struct {
	Type              string
	Subtype           string
	UUID              string
	ParentUUID        parentRef
	LogicalParentUUID string
	SessionID         string
	AgentID           string
	IsSidechain       bool
	IsMeta            bool
	IsCompactSummary  bool
	IsAPIError        bool
	Cwd               string
	Version           string
	GitBranch         string
	Timestamp         string
	Message           *message
	ToolUseResult     useResult
	Summary           string
	LeafUUID          string
	AITitle           string
	CustomTitle       string
	Attachment        attachment
}

// recordFields names the members of a line that are read.
var recordFields = []string{
	"type", "subtype", "uuid", "parentUuid", "logicalParentUuid", "sessionId",
	"agentId", "isSidechain", "isMeta", "isCompactSummary", "isApiErrorMessage",
	"cwd", "version", "gitBranch", "timestamp", "message", "toolUseResult",
	"summary", "leafUuid", "aiTitle", "customTitle", "attachment",
}

func (r *record) set(key, val []byte) {
	switch matchField(key, recordFields) {
	case "type":
		setString(&r.Type, val)
	case "subtype":
		setString(&r.Subtype, val)
	case "uuid":
		setString(&r.UUID, val)
	case "parentUuid":
		r.ParentUUID.Set = true
		setString(&r.ParentUUID.UUID, val)
	case "logicalParentUuid":
		setString(&r.LogicalParentUUID, val)
	case "sessionId":
		setString(&r.SessionID, val)
	case "agentId":
		setString(&r.AgentID, val)
	case "isSidechain":
		setBool(&r.IsSidechain, val)
	case "isMeta":
		setBool(&r.IsMeta, val)
	case "isCompactSummary":
		setBool(&r.IsCompactSummary, val)
	case "isApiErrorMessage":
		setBool(&r.IsAPIError, val)
	case "cwd":
		setString(&r.Cwd, val)
	case "version":
		setString(&r.Version, val)
	case "gitBranch":
		setString(&r.GitBranch, val)
	case "timestamp":
		setString(&r.Timestamp, val)
	case "message":
		// null clears the message; any other value makes one, even a
		// value of the wrong type (which then holds nothing).
		if isNull(val) {
			r.Message = nil
			return
		}
		if r.Message == nil {
			r.Message = &message{}
		}
		if val[0] == '{' {
			r.Message.read(val)
		}
	case "toolUseResult":
		r.ToolUseResult.read(val)
	case "summary":
		setString(&r.Summary, val)
	case "leafUuid":
		setString(&r.LeafUUID, val)
	case "aiTitle":
		setString(&r.AITitle, val)
	case "customTitle":
		setString(&r.CustomTitle, val)
	case "attachment":
		r.Attachment = readAttachment(val)
	}
}

// message is the API message inside a user or assistant line. Its content
// is decoded with the line: a string or blocks.
type message struct {
	ID         string
	Model      string
	StopReason string
	text       string  // string content
	blocks     []block // block content; not nil for an array, even empty
	isText     bool    // content was a string
	noContent  bool    // content absent or null
	raw        []byte  // the content while its line is being read
}

var messageFields = []string{"id", "model", "content", "stop_reason"}

func (m *message) read(obj []byte) {
	it := jsonscan.MembersOf(obj)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		switch matchField(k, messageFields) {
		case "id":
			setString(&m.ID, v)
		case "model":
			setString(&m.Model, v)
		case "content":
			m.raw = v
		case "stop_reason":
			setString(&m.StopReason, v)
		}
	}
}

// useResult keeps the few facts cairn needs from toolUseResult, which
// often repeats a whole file and is not worth holding in memory.
type useResult struct {
	Rejected    bool
	Interrupted bool
	File        bool
}

// read takes what a toolUseResult member says. The value is not decoded:
// it is skipped over but for the members named here.
func (u *useResult) read(b []byte) {
	switch b[0] {
	case '"':
		u.Rejected = hasPrefixDecoded(b, "User rejected")
	case '{':
		var interrupted, file bool
		it := jsonscan.MembersOf(b)
		for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
			switch matchField(k, useResultFields) {
			case "interrupted":
				setBool(&interrupted, v)
			case "file":
				file = !isNull(v)
			}
		}
		u.Interrupted, u.File = interrupted, file
	}
}

var useResultFields = []string{"interrupted", "file"}

// attachment keeps the kind of an attachment record and whether hook
// context in it carried cairn's marker; its content is never stored.
type attachment struct {
	Type   string
	Marked bool
}

var attachmentFields = []string{"type"}

func readAttachment(b []byte) attachment {
	var a attachment
	if b[0] == '{' {
		it := jsonscan.MembersOf(b)
		for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
			if matchField(k, attachmentFields) != "" {
				setString(&a.Type, v)
			}
		}
	}
	a.Marked = bytes.Contains(b, []byte("<cairn-memory")) || bytes.Contains(b, []byte(`\u003ccairn-memory`))
	return a
}

var errInvalidJSON = errors.New("invalid json")

// decodeRecord parses one line. Type mismatches inside the line are
// tolerated; only malformed JSON is an error. A line that is JSON but not
// an object is an empty record.
func decodeRecord(line []byte) (*record, error) {
	if !jsonscan.Valid(line) {
		return nil, errInvalidJSON
	}
	r := &record{}
	line = line[jsonscan.SkipSpace(line, 0):]
	if line[0] != '{' {
		return r, nil
	}
	it := jsonscan.MembersOf(line)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		r.set(k, v)
	}
	if m := r.Message; m != nil {
		m.noContent = len(m.raw) == 0 || isNull(m.raw)
		m.text, m.blocks, m.isText = decodeContent(m.raw)
		m.raw = nil // a slice of the line, which is about to be reused
	}
	return r, nil
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

// UnmarshalJSON is for Sniff, which decodes with encoding/json. It never
// fails; a parent that is not a string is no parent.
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
