package memory

import "time"

// Episode (L2) is a bounded request/outcome summary of one completed turn.
type Episode struct {
	ID         int64      `json:"id"`
	SessionID  int64      `json:"session_id"`
	SessionRef string     `json:"session,omitempty"`
	TurnID     int64      `json:"turn_id"`
	TurnSeq    int        `json:"turn_seq,omitempty"`
	TurnKey    string     `json:"turn_key,omitempty"`
	Place      Place      `json:"place"`
	Request    string     `json:"request"`
	Outcome    string     `json:"outcome"`
	Summary    string     `json:"summary"`
	Tools      []string   `json:"tools,omitempty"`
	Files      []string   `json:"files,omitempty"`
	Status     TurnStatus `json:"status"`
	FirstPart  int        `json:"first_part"`
	LastPart   int        `json:"last_part"`
	At         time.Time  `json:"at"`
	CreatedAt  time.Time  `json:"created_at"`
	Confidence float64    `json:"confidence"`
	Pinned     bool       `json:"pinned,omitempty"`
	ExpiredAt  time.Time  `json:"expired_at,omitzero"`
	Reason     Reason     `json:"reason,omitempty"`
	UsageCount int        `json:"usage_count,omitempty"`
}

// Candidate is a statement waiting out its settling window.
type Candidate struct {
	ID        int64     `json:"id"`
	SessionID int64     `json:"session_id"`
	TurnID    int64     `json:"turn_id"`
	Draft     Draft     `json:"draft"`
	UserText  string    `json:"-"`
	Place     Place     `json:"place"`
	DueAt     time.Time `json:"due_at"`
}

// Profile (L3) is the conservative profile built from active L1 notes.
type Profile struct {
	ID      int64     `json:"id"`
	Body    string    `json:"body"`
	Sources []int64   `json:"sources"`
	BuiltAt time.Time `json:"built_at"`
}

// CandidateSet is what one turn adds to the candidate queue: its drafts
// (maybe none: a later turn still moves its session's window on).
type CandidateSet struct {
	SessionID int64
	TurnID    int64
	Drafts    []Draft
	UserText  string
	DueAt     time.Time
}
