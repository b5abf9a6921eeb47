package memory

import (
	"strings"
	"time"
)

// Kind separates what a statement is.
type Kind string

// Statement kinds. Facts may hold one value per slot; events and notes
// always accumulate.
const (
	KindFact  Kind = "fact"
	KindEvent Kind = "event"
	KindNote  Kind = "note"
)

// Class says what a statement is about; it sets the default place.
type Class string

// The six classes of DESIGN.md.
const (
	ClassUser        Class = "user"
	ClassPreference  Class = "preference"
	ClassConvention  Class = "convention"
	ClassDecision    Class = "decision"
	ClassEnvironment Class = "environment"
	ClassTask        Class = "task"
)

// Classes lists every class.
var Classes = []Class{ClassUser, ClassPreference, ClassConvention, ClassDecision, ClassEnvironment, ClassTask}

// Cardinality is how many current values a slot holds.
type Cardinality string

// Cardinalities.
const (
	One  Cardinality = "one"
	Many Cardinality = "many"
)

// Tier records who could witness a statement. It is set from the writer,
// never from the text.
type Tier string

// Tiers, strongest first. TierNone is stored but never sent to a model.
const (
	TierAsserted Tier = "asserted"
	TierObserved Tier = "observed"
	TierInferred Tier = "inferred"
	TierNone     Tier = ""
)

// Rank orders tiers: higher is stronger; TierNone is lowest.
func (t Tier) Rank() int {
	switch t {
	case TierAsserted:
		return 3
	case TierObserved:
		return 2
	case TierInferred:
		return 1
	}
	return 0
}

// Writer names who wrote a statement; each has a tier ceiling.
type Writer string

// Writers.
const (
	WriterUser    Writer = "user"    // captured from the user's own message
	WriterCLI     Writer = "cli"     // `cairn remember`, `cairn fact assert`
	WriterUI      Writer = "ui"      // the web UI or the TUI
	WriterVault   Writer = "vault"   // a line a person wrote in the vault
	WriterTool    Writer = "tool"    // rules over tool calls: commits, pushes, edits, errors
	WriterModel   Writer = "model"   // model extraction
	WriterAgent   Writer = "agent"   // an agent's remember call
	WriterCapture Writer = "capture" // deterministic markers over the user's text
)

// Reason says why a row stopped being current.
type Reason string

// Reasons a row is closed or expired.
const (
	ReasonNone       Reason = ""
	ReasonSuperseded Reason = "superseded" // a newer value took its slot
	ReasonRevised    Reason = "revised"    // a late arrival changed its window; a revised copy replaced it
	ReasonRetracted  Reason = "retracted"  // retract call, deleted vault line
	ReasonForgotten  Reason = "forgotten"  // Forget
	ReasonReopened   Reason = "reopened"   // an older value was reopened over it
	ReasonHeldBack   Reason = "held_back"  // refusal hold-back
	ReasonCapped     Reason = "capped"     // beyond a layer's cap
	ReasonMoved      Reason = "moved"      // placed at another rung; a copy at the new place replaced it
)

// Statement is every durable claim: an L1 note or a fact, with two clocks.
// ValidAt/InvalidAt is the world clock (when it was true); CreatedAt/
// ExpiredAt the system clock (when the store believed it).
type Statement struct {
	ID          int64       `json:"id"`
	Account     AccountID   `json:"account"`
	Kind        Kind        `json:"kind"`
	Subject     string      `json:"subject,omitempty"`
	Predicate   string      `json:"predicate,omitempty"`
	Object      string      `json:"object"`
	Class       Class       `json:"class"`
	Category    string      `json:"category,omitempty"`
	Cardinality Cardinality `json:"cardinality"`
	Tier        Tier        `json:"tier"`
	Writer      Writer      `json:"writer"`
	Scope       Scope       `json:"scope"`
	Confidence  float64     `json:"confidence"`
	Pinned      bool        `json:"pinned,omitempty"`
	ValidAt     time.Time   `json:"valid_at"`
	InvalidAt   time.Time   `json:"invalid_at,omitzero"`
	CreatedAt   time.Time   `json:"created_at"`
	ExpiredAt   time.Time   `json:"expired_at,omitzero"`
	Reason      Reason      `json:"reason,omitempty"`
	// ReplacedBy is the row that closed this one, when one did.
	ReplacedBy int64      `json:"replaced_by,omitempty"`
	UsageCount int        `json:"usage_count,omitempty"`
	LastUsedAt time.Time  `json:"last_used_at,omitzero"`
	Evidence   []Evidence `json:"evidence,omitempty"`
}

// Slot is a fact's subject and predicate: one-value slots hold one
// current value.
func (s Statement) Slot() string { return s.Subject + "\x1f" + s.Predicate }

// SlotKey is how a store groups a slot: the subject without its case.
func SlotKey(slot string) string {
	subject, predicate, _ := strings.Cut(slot, "\x1f")
	return strings.ToLower(subject) + "\x1f" + predicate
}

// Current reports whether the row is true now and believed now.
func (s Statement) Current() bool { return s.InvalidAt.IsZero() && s.ExpiredAt.IsZero() }

// Withdrawn reports whether the row was taken back rather than replaced
// by a newer value: retracted, forgotten, held back, closed by a reopen, or
// revised into a copy. World-clock as-of ignores withdrawn rows.
func (s Statement) Withdrawn() bool {
	switch s.Reason {
	case ReasonRetracted, ReasonForgotten, ReasonHeldBack, ReasonReopened, ReasonRevised, ReasonMoved:
		return true
	}
	return false
}

// ValidOn reports whether the row was true at t on the world clock.
func (s Statement) ValidOn(t time.Time) bool {
	if s.Withdrawn() {
		return false
	}
	return !t.Before(s.ValidAt) && (s.InvalidAt.IsZero() || t.Before(s.InvalidAt))
}

// BelievedAt reports whether the store held the row at t on the system
// clock.
func (s Statement) BelievedAt(t time.Time) bool {
	return !t.Before(s.CreatedAt) && (s.ExpiredAt.IsZero() || t.Before(s.ExpiredAt))
}

// Evidence links a statement to where it came from.
type Evidence struct {
	SessionID  int64  `json:"session_id,omitempty"`
	SessionRef string `json:"session,omitempty"`
	TurnID     int64  `json:"turn_id,omitempty"`
	TurnSeq    int    `json:"turn_seq,omitempty"`
	TurnKey    string `json:"turn_key,omitempty"`
	PartSeq    int    `json:"part_seq,omitempty"`
	Source     string `json:"source,omitempty"` // turn, tool, cli, vault, model
	Quote      string `json:"quote,omitempty"`  // the words it rests on, redacted
}
