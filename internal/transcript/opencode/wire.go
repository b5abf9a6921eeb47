package opencode

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"
)

// The shapes below are the fields cairn reads from OpenCode's MessageV2
// model. The same JSON appears in `opencode export` output, in the legacy
// storage/ files and in the data column of opencode.db (there without the
// ids, which live in their own columns). Everything else is ignored.

// sessionInfo is one OpenCode session.
type sessionInfo struct {
	ID        string `json:"id"`
	ParentID  string `json:"parentID"`
	Directory string `json:"directory"`
	Title     string `json:"title"`
	Version   string `json:"version"`
	// Model is the session's chosen model (1.18 and later).
	Model struct {
		ID string `json:"id"`
	} `json:"model"`
	Time struct {
		Created float64 `json:"created"`
		Updated float64 `json:"updated"`
	} `json:"time"`
}

// messageInfo is MessageV2.Info: a user or an assistant message.
type messageInfo struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	Role      string `json:"role"`
	// Assistant messages name their model directly...
	ModelID string `json:"modelID"`
	// ...user messages in an object.
	Model struct {
		ModelID string `json:"modelID"`
	} `json:"model"`
	Path struct {
		Cwd string `json:"cwd"`
	} `json:"path"`
	Time struct {
		Created   float64 `json:"created"`
		Completed float64 `json:"completed"`
	} `json:"time"`
	Finish string    `json:"finish"`
	Error  *msgError `json:"error"`
	// Summary is true on the assistant message that holds a compaction
	// summary; user messages carry an object here (their diffs).
	Summary json.RawMessage `json:"summary"`
}

// msgError is the NamedError OpenCode stores on a failed assistant message
// (APIError, MessageAbortedError, ContentFilterError, ProviderAuthError,
// MessageOutputLengthError, UnknownError, ...).
type msgError struct {
	Name string `json:"name"`
}

// isSummary reports whether an assistant message is a compaction summary.
func (m *messageInfo) isSummary() bool {
	return bytes.Equal(bytes.TrimSpace(m.Summary), []byte("true"))
}

// part is one MessageV2 part. Only the fields of the types cairn maps are
// listed; the type decides which are set.
type part struct {
	ID        string `json:"id"`
	MessageID string `json:"messageID"`
	SessionID string `json:"sessionID"`
	Type      string `json:"type"`
	// text (and reasoning, which is not stored)
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Ignored   bool   `json:"ignored"`
	// tool
	Tool     string    `json:"tool"`
	CallID   string    `json:"callID"`
	State    toolState `json:"state"`
	Metadata struct {
		ProviderExecuted bool `json:"providerExecuted"`
	} `json:"metadata"`
	// file
	Mime     string `json:"mime"`
	Filename string `json:"filename"`
	URL      string `json:"url"`
	Source   struct {
		Path string `json:"path"`
	} `json:"source"`
	// subtask
	Prompt      string `json:"prompt"`
	Description string `json:"description"`
	Agent       string `json:"agent"`
	Time        struct {
		Start float64 `json:"start"`
		End   float64 `json:"end"`
	} `json:"time"`
}

// toolState is a tool part's state. Output is a string in real data; the
// simplified synthetic fixtures hold an object, so it stays raw.
type toolState struct {
	Status   string          `json:"status"`
	Input    json.RawMessage `json:"input"`
	Output   json.RawMessage `json:"output"`
	Error    string          `json:"error"`
	Metadata struct {
		// SessionID names the child session a task tool ran.
		SessionID string `json:"sessionId"`
	} `json:"metadata"`
	Attachments []struct {
		Mime     string `json:"mime"`
		Filename string `json:"filename"`
	} `json:"attachments"`
	Time struct {
		Start float64 `json:"start"`
		End   float64 `json:"end"`
	} `json:"time"`
}

// message is one message with its parts, in order.
type message struct {
	Info  messageInfo
	Parts []part
}

// decodeProblem says how a record decoded.
type decodeProblem int

const (
	decodedOK      decodeProblem = iota
	decodedPartial               // a field had the wrong type and was left empty
	decodedInvalid               // not a JSON object at all
)

// decodeRecord decodes one JSON object leniently. encoding/json leaves a
// field of the wrong type empty and goes on with the rest, so such a record
// is kept (partial) rather than lost; only text that is not a JSON object
// is rejected.
func decodeRecord(raw []byte, v any) decodeProblem {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return decodedInvalid
	}
	err := json.Unmarshal(raw, v)
	if err == nil {
		return decodedOK
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return decodedPartial
	}
	return decodedInvalid
}

// msTime turns OpenCode's Unix milliseconds into a time; zero, negative
// and absurd values give the zero time.
func msTime(ms float64) time.Time {
	if ms <= 0 || ms > 1e14 {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms)).UTC()
}
