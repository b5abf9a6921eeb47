package memory

import "time"

// Outcome is how a task in a session ended, as extraction judges it.
type Outcome string

// Outcomes.
const (
	OutcomeSuccess   Outcome = "success"
	OutcomePartial   Outcome = "partial"
	OutcomeFailure   Outcome = "failure"
	OutcomeUncertain Outcome = "uncertain"
)

// Extraction is phase 1's output for one session (seed 001): a raw memory
// (frontmatter, then preference signals, reusable knowledge and failure
// shields), a rollout summary and a slug. Empty is a valid, recorded
// outcome: the session taught nothing worth keeping.
type Extraction struct {
	ID         int64     `json:"id"`
	SessionID  int64     `json:"session_id"`
	SessionRef string    `json:"session"`
	Provider   Provider  `json:"provider"`
	Place      Place     `json:"place"`
	Slug       string    `json:"slug"`
	RawMemory  string    `json:"raw_memory"`
	Summary    string    `json:"rollout_summary"`
	Empty      bool      `json:"empty"`
	Task       string    `json:"task,omitempty"`
	TaskGroup  string    `json:"task_group,omitempty"`
	Outcome    Outcome   `json:"outcome,omitempty"`
	Keywords   []string  `json:"keywords,omitempty"`
	Statements []int64   `json:"statements,omitempty"` // the L1 rows it rests on
	Version    string    `json:"version"`              // v1 or v2 pipeline
	Model      string    `json:"model,omitempty"`      // "" = deterministic
	CreatedAt  time.Time `json:"created_at"`
	SessionAt  time.Time `json:"session_at"` // when the session ended
	UsageCount int       `json:"usage_count"`
	LastUsedAt time.Time `json:"last_used_at,omitzero"`
}
