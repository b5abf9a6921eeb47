package memory

import "time"

// Provider names the client a session came from.
type Provider string

// Known providers. Other MCP clients record their own name.
const (
	ProviderClaudeCode Provider = "claude-code"
	ProviderCodex      Provider = "codex"
	ProviderOpenCode   Provider = "opencode"
)

// Session is one client conversation.
type Session struct {
	ID         int64     `json:"id"`
	Account    AccountID `json:"account"`
	Provider   Provider  `json:"provider"`
	ExternalID string    `json:"external_id"` // the client's own session id
	// ParentExternalID links a subagent session to the session that spawned it.
	ParentExternalID string    `json:"parent_external_id,omitempty"`
	Subagent         bool      `json:"subagent,omitempty"`
	Cwd              string    `json:"cwd,omitempty"`
	Place            Place     `json:"place"`
	Title            string    `json:"title,omitempty"`
	Summary          string    `json:"summary,omitempty"`
	ClientVersion    string    `json:"client_version,omitempty"`
	Model            string    `json:"model,omitempty"`
	Branch           string    `json:"branch,omitempty"`
	StartedAt        time.Time `json:"started_at"`
	EndedAt          time.Time `json:"ended_at"`
	Turns            []Turn    `json:"turns,omitempty"`
}

// SessionSummary is a session with its sizes, for listings.
type SessionSummary struct {
	Session
	TurnCount int `json:"turn_count"`
	PartCount int `json:"part_count"`
}

// SaveCounts says what saving a session changed.
type SaveCounts struct {
	SessionID      int64 `json:"session_id"`
	TurnsAdded     int   `json:"turns_added"`
	TurnsUpdated   int   `json:"turns_updated"`
	TurnsUnchanged int   `json:"turns_unchanged"`
	Parts          int   `json:"parts_written"`
	// Changed maps the key of each turn added or updated to its id, for
	// capture to look at.
	Changed map[string]int64 `json:"-"`
}

// QueuedTurn is a turn whose capture waits for capture to be switched on.
type QueuedTurn struct {
	ID        int64  `json:"id"`
	Kind      string `json:"kind"` // tools, turn
	SessionID int64  `json:"session_id"`
	TurnID    int64  `json:"turn_id"`
}

// PendingWrite is a write an agent asked for during a turn, waiting for
// the turn's end.
type PendingWrite struct {
	ID        int64     `json:"id"`
	Worktree  string    `json:"worktree"`
	Write     []byte    `json:"write"` // the engine's encoded write
	CreatedAt time.Time `json:"created_at"`
}
