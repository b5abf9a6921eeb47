package temporal

import (
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// Action is what a write does.
type Action int

// Actions.
const (
	Insert     Action = iota // a new current row (closing the slot's old value if it holds one)
	InsertLate               // an older value arriving late: stored already closed, as history
	Restate                  // the same value in other words: the existing row is reinforced
)

func (a Action) String() string {
	return [...]string{"insert", "insert-late", "restate"}[a]
}

// Close ends a row's window and its belief: set InvalidAt (world) and
// ExpiredAt (system) with a reason.
type Close struct {
	ID        int64
	InvalidAt time.Time
	Reason    memory.Reason
}

// Revision re-windows a closed row whose successor turned out to be a late
// arrival: the row is expired as revised, and a copy with the shorter
// window takes its place, so both clocks stay exact.
type Revision struct {
	ID           int64
	NewInvalidAt time.Time
}

// Plan is the outcome of Decide: everything the store must do, in one
// transaction.
type Plan struct {
	Action  Action
	Row     memory.Statement // the row to insert (Insert, InsertLate)
	Restate int64            // the row to reinforce (Restate)
	Close   []Close          // rows the new value supersedes
	Revise  []Revision
}

// Decide applies the write rules to one statement. slot holds the rows of
// the statement's slot that the writer can see (current and history; rows
// withdrawn may be included and are ignored). threshold is the
// restatement overlap (0.7).
//
//   - Many-value slots keep every value and drop near-copies: a restatement
//     of a current value reinforces it.
//   - In a one-value slot a restatement (character-bigram overlap ≥
//     threshold and no new content — "3 attempts" → "5 attempts" is new)
//     reinforces the current row; a new value valid no earlier than the
//     current one closes every current row at its valid_at, so windows meet
//     with no gap and no overlap; a value older than the current one is a
//     late arrival, stored already closed at the valid_at of the row after
//     it, and the row before it is re-windowed to end where it begins.
func Decide(st memory.Statement, slot []memory.Statement, threshold float64) Plan {
	var live []memory.Statement
	for _, r := range slot {
		if !r.Withdrawn() {
			live = append(live, r)
		}
	}
	var current []memory.Statement
	for _, r := range live {
		if r.Current() {
			current = append(current, r)
		}
	}
	for _, r := range current {
		if Restates(r.Object, st.Object, threshold) {
			return Plan{Action: Restate, Restate: r.ID}
		}
	}
	if st.Cardinality == memory.Many || st.Kind != memory.KindFact {
		return Plan{Action: Insert, Row: st}
	}
	latest := time.Time{}
	for _, r := range current {
		if r.ValidAt.After(latest) {
			latest = r.ValidAt
		}
	}
	if len(current) == 0 || !st.ValidAt.Before(latest) {
		p := Plan{Action: Insert, Row: st}
		for _, r := range current {
			p.Close = append(p.Close, Close{ID: r.ID, InvalidAt: st.ValidAt, Reason: memory.ReasonSuperseded})
		}
		return p
	}
	return late(st, live, threshold)
}

// late places an older value into the slot's history: it takes the time
// from its valid_at to the start of the next window, and the window that
// held its valid_at is cut short there. Empty windows (a value replaced at
// the very instant it began) cover nothing and are skipped.
func late(st memory.Statement, live []memory.Statement, threshold float64) Plan {
	var holder *memory.Statement
	next := time.Time{}
	for i := range live {
		r := &live[i]
		if !r.InvalidAt.IsZero() && !r.InvalidAt.After(r.ValidAt) {
			continue
		}
		if !st.ValidAt.Before(r.ValidAt) && (r.InvalidAt.IsZero() || st.ValidAt.Before(r.InvalidAt)) {
			holder = r
		}
		if r.ValidAt.After(st.ValidAt) && (next.IsZero() || r.ValidAt.Before(next)) {
			next = r.ValidAt
		}
	}
	// The same value already held that time: nothing new.
	if holder != nil && Restates(holder.Object, st.Object, threshold) {
		return Plan{Action: Restate, Restate: holder.ID}
	}
	row := st
	row.InvalidAt = next // st is older than a current row, so there is a next window
	p := Plan{Action: InsertLate, Row: row}
	if holder != nil {
		p.Revise = append(p.Revise, Revision{ID: holder.ID, NewInvalidAt: st.ValidAt})
	}
	return p
}

// Restates reports whether next says what prev says: close wording
// (character-bigram overlap ≥ threshold) and no new content.
func Restates(prev, next string, threshold float64) bool {
	if prev == next {
		return true
	}
	return text.BigramOverlap(prev, next) >= threshold && !text.NewContent(prev, next)
}

// Proposal is one statement for a store to apply in a batch: the row, what
// the writer can see, and how to decide once the slot is loaded.
type Proposal struct {
	Statement memory.Statement
	Sight     memory.Sight
	Decide    func(slot []memory.Statement) Plan
	// Candidate is the candidate this promotes, marked promoted in the same
	// transaction; 0 when none.
	Candidate int64
}

// DecideNote applies the notes' rule (seed 000): a note whose token
// Jaccard with a current note reaches the threshold reinforces that note
// (evidence merged, confidence raised) instead of becoming a copy.
func DecideNote(st memory.Statement, similar []memory.Statement, jaccard float64) Plan {
	words := text.Tokens(st.Object)
	best, bestScore := int64(0), 0.0
	for _, r := range similar {
		if !r.Current() || r.Kind != memory.KindNote {
			continue
		}
		if s := text.Jaccard(words, text.Tokens(r.Object)); s >= jaccard && s > bestScore {
			best, bestScore = r.ID, s
		}
	}
	if best != 0 {
		return Plan{Action: Restate, Restate: best}
	}
	return Plan{Action: Insert, Row: st}
}

// Applied is what a store did with one proposal.
type Applied struct {
	Statement memory.Statement
	Action    Action
}
