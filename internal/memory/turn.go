package memory

import (
	"strings"
	"time"
)

// TurnStatus is how a turn ended, from the client's own signals.
type TurnStatus string

// Turn statuses. Only completed turns feed capture.
const (
	TurnCompleted TurnStatus = "completed"
	TurnCutShort  TurnStatus = "cut_short" // interrupted, aborted, or still running when read
	TurnRefused   TurnStatus = "refused"
	TurnFailed    TurnStatus = "failed"
)

// Provenance flags record what besides the user's own words went into a
// turn, so "learn from external context" can exclude it from derived layers.
type Provenance uint16

// Provenance bits.
const (
	FromMCP Provenance = 1 << iota
	FromFiles
	FromImages
	FromReferencedChats
	FromBrowser
	FromProviderTools
	FromRecalledMemory
)

var provenanceNames = []struct {
	bit  Provenance
	name string
}{
	{FromMCP, "mcp"},
	{FromFiles, "files"},
	{FromImages, "images"},
	{FromReferencedChats, "referenced_chats"},
	{FromBrowser, "browser"},
	{FromProviderTools, "provider_tools"},
	{FromRecalledMemory, "recalled_memory"},
}

// Names lists the set flags in a fixed order.
func (p Provenance) Names() []string {
	var out []string
	for _, n := range provenanceNames {
		if p&n.bit != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

func (p Provenance) String() string { return strings.Join(p.Names(), ",") }

// External reports whether anything other than the user's words and the
// model's answer went into the turn.
func (p Provenance) External() bool { return p != 0 }

// Turn is one request and its outcome.
type Turn struct {
	ID        int64      `json:"id"`
	SessionID int64      `json:"session_id"`
	Seq       int        `json:"seq"`
	Key       string     `json:"key"` // stable id within the session, from the client's records
	Request   string     `json:"request"`
	Outcome   string     `json:"outcome"`
	Status    TurnStatus `json:"status"`
	Flags     Provenance `json:"flags"`
	Model     string     `json:"model,omitempty"`
	StartedAt time.Time  `json:"started_at"`
	EndedAt   time.Time  `json:"ended_at"`
	Parts     []Part     `json:"parts,omitempty"`
	// Digest fingerprints the redacted content; re-imports compare it.
	Digest string `json:"-"`
	// Cited lists the memory refs the answer cited (n12, f3, e4), read
	// from cairn's citation tag, which is removed from the stored text.
	Cited []string `json:"cited,omitempty"`
}

// Role says who produced a part.
type Role string

// Part roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	RoleSystem    Role = "system"
)

// PartKind says what a part holds.
type PartKind string

// Part kinds.
const (
	KindText       PartKind = "text"
	KindToolCall   PartKind = "tool_call"
	KindToolResult PartKind = "tool_result"
	KindReasoning  PartKind = "reasoning"
	KindSummary    PartKind = "summary" // a compaction or session summary
	KindSubagent   PartKind = "subagent"
)

// Part is one redacted piece of a transcript (L0).
type Part struct {
	ID      int64     `json:"id"`
	TurnID  int64     `json:"turn_id"`
	Seq     int       `json:"seq"`
	Role    Role      `json:"role"`
	Kind    PartKind  `json:"kind"`
	Text    string    `json:"text"`
	Tool    string    `json:"tool,omitempty"`
	IsError bool      `json:"is_error,omitempty"`
	Time    time.Time `json:"time"`
}
