package engine

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// FactQuery selects statements by place.
type FactQuery struct {
	Cwd   string
	Place *memory.Place
	// Rung limits the read to the rungs up to it (everywhere by default: a
	// read returns every row whose place contains the directory); with
	// Strict, to that rung alone.
	Rung   memory.Rung
	Strict bool
	// All places, ignoring Cwd.
	Everywhere bool
	Kinds      []memory.Kind
}

// FactsView is the present of a place: its current rows and what changed
// lately.
type FactsView struct {
	Place   memory.Place       `json:"place"`
	Current []memory.Statement `json:"current"`
	// Recent holds rows closed lately, each with the row that replaced it.
	Recent []Change `json:"recent_changes"`
}

// Change is a row that was replaced, and its replacement.
type Change struct {
	Old memory.Statement  `json:"old"`
	New *memory.Statement `json:"new,omitempty"`
}

// sight resolves a query's place into what it may see.
func (e *Engine) sight(q FactQuery) (memory.Place, *memory.Sight, error) {
	if q.Everywhere {
		return memory.Place{}, nil, nil
	}
	var p memory.Place
	if q.Place != nil {
		p = *q.Place
	} else {
		if q.Cwd == "" {
			return p, nil, memory.Errorf(memory.CodeInvalid, "give a directory (--cwd) or read every place")
		}
		var err error
		if p, err = e.resolve(q.Cwd); err != nil {
			return p, nil, err
		}
	}
	rung := q.Rung
	if rung == memory.RungNone {
		rung = memory.RungEverywhere
	}
	see := memory.SightOf(p, rung)
	if q.Strict {
		see = memory.Sight{Scopes: []memory.Scope{p.ScopeAt(rung)}}
	}
	return p, &see, nil
}

// Facts returns a place's current facts and events, and its recent
// changes: at most recall.recent_changes_limit rows closed within
// recall.recent_changes_window.
func (e *Engine) Facts(ctx context.Context, q FactQuery) (FactsView, error) {
	p, see, err := e.sight(q)
	if err != nil {
		return FactsView{}, err
	}
	kinds := q.Kinds
	if len(kinds) == 0 {
		kinds = []memory.Kind{memory.KindFact, memory.KindEvent}
	}
	cur, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Kinds: kinds, Sight: see, Current: true, Evidence: true})
	if err != nil {
		return FactsView{}, err
	}
	recent, err := e.recentChanges(ctx, kinds, see)
	return FactsView{Place: p, Current: cur, Recent: recent}, err
}

// recentChanges lists the rows in sight closed lately, each with the row
// that replaced it: at most recall.recent_changes_limit within
// recall.recent_changes_window.
func (e *Engine) recentChanges(ctx context.Context, kinds []memory.Kind, see *memory.Sight) ([]Change, error) {
	now := e.now()
	// Only rows closed within the window are read, then their
	// replacements: reading every live row cost a standing block most of
	// its time on a big store.
	limit := e.cfg.Recall.RecentLimit
	f := memory.StatementFilter{Kinds: kinds, Sight: see, Live: true, Reason: memory.ReasonSuperseded, ByExpiry: true,
		ExpiredSince: now.Add(-e.cfg.Recall.RecentWindow.D())}
	if limit >= 0 {
		// A few more than shown: rows stamped after now (another
		// machine's clock) are read and left out.
		f.Limit = 2*limit + 8
	}
	closed, err := e.store.Statements(ctx, e.acct, f)
	if err != nil {
		return nil, err
	}
	olds := temporal.RecentChanges(closed, now, e.cfg.Recall.RecentWindow.D(), limit)
	var ids []int64
	for _, o := range olds {
		if o.ReplacedBy != 0 {
			ids = append(ids, o.ReplacedBy)
		}
	}
	byID := map[int64]memory.Statement{}
	if len(ids) > 0 {
		news, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{IDs: ids, Kinds: kinds, Sight: see, Live: true})
		if err != nil {
			return nil, err
		}
		for _, s := range news {
			byID[s.ID] = s
		}
	}
	var out []Change
	for _, old := range olds {
		c := Change{Old: old}
		if n, ok := byID[old.ReplacedBy]; ok {
			c.New = &n
		}
		out = append(out, c)
	}
	return out, nil
}

// Timeline lists rows in time order on a clock within [since, until).
func (e *Engine) Timeline(ctx context.Context, q FactQuery, clock temporal.Clock, since, until time.Time) ([]memory.Statement, error) {
	_, see, err := e.sight(q)
	if err != nil {
		return nil, err
	}
	rows, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Kinds: q.Kinds, Sight: see})
	if err != nil {
		return nil, err
	}
	if clock == temporal.World {
		rows = liveOnly(rows)
	}
	return temporal.Timeline(rows, clock, since, until), nil
}

// AsOf returns the store as it stood at t: on the world clock, what was
// true then; on the system clock, what cairn held as current then.
func (e *Engine) AsOf(ctx context.Context, q FactQuery, t time.Time, clock temporal.Clock) ([]memory.Statement, error) {
	_, see, err := e.sight(q)
	if err != nil {
		return nil, err
	}
	rows, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Kinds: q.Kinds, Sight: see})
	if err != nil {
		return nil, err
	}
	return temporal.AsOf(rows, t, clock), nil
}

func liveOnly(rows []memory.Statement) []memory.Statement {
	out := rows[:0:0]
	for _, r := range rows {
		if !r.Withdrawn() {
			out = append(out, r)
		}
	}
	return out
}

// Export writes every statement, both clocks and evidence, as JSON lines.
func (e *Engine) Export(ctx context.Context, w io.Writer) (int, error) {
	rows, err := e.store.Statements(ctx, e.acct, memory.StatementFilter{Evidence: true})
	if err != nil {
		return 0, err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return 0, memory.Wrap(memory.CodeInternal, "export", err)
		}
	}
	return len(rows), nil
}

// Retract takes a current row back: it stays as history on the system
// clock and leaves the world clock as it was.
func (e *Engine) Retract(ctx context.Context, id int64) (memory.Statement, error) {
	s, err := e.store.WithdrawStatement(ctx, e.acct, id, memory.ReasonRetracted)
	if err == nil {
		e.noteChanged(ctx, s)
	}
	return s, err
}

// Reopen makes a closed or withdrawn row current again, closing what had
// replaced it in its slot.
func (e *Engine) Reopen(ctx context.Context, id int64) (memory.Statement, error) {
	s, err := e.store.Statement(ctx, e.acct, id)
	if err != nil {
		return s, err
	}
	if s.Reason == memory.ReasonMoved {
		// Both copies current would hold the value twice.
		return s, memory.Errorf(memory.CodeConflict, "statement %d was moved to another place; statement %d holds it now: move that one instead", id, s.ReplacedBy)
	}
	see := memory.Sight{All: true}
	if s.Class != memory.ClassUser && s.Scope.Rung != memory.RungNone {
		// What the row's own place can see: the rungs at and below it are
		// unknown from the row alone, so close only rows at its scope or
		// unplaced.
		see = memory.Sight{Scopes: []memory.Scope{s.Scope}}
	}
	s, err = e.store.ReopenStatement(ctx, e.acct, id, see)
	if err == nil {
		e.noteChanged(ctx, s)
	}
	return s, err
}
