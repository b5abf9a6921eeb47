package engine

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// EditNote replaces a current note's text with a person's correction. The
// old row closes as superseded and stays in the history; the new row keeps
// the note's class, category, pin, place and evidence, so a corrected rule
// is still traced to the turn it came from.
func (e *Engine) EditNote(ctx context.Context, id int64, text string) (memory.Statement, error) {
	old, err := e.store.Statement(ctx, e.acct, id)
	if err != nil {
		return old, err
	}
	if old.Kind != memory.KindNote {
		return old, memory.Errorf(memory.CodeInvalid, "statement %d is a %s: only notes are edited; assert the new value instead and the old one becomes history", id, old.Kind)
	}
	if !old.Current() {
		return old, memory.Errorf(memory.CodeConflict, "note %d is not current (%s): undo it first, then edit", id, reasonOr(old.Reason, "closed"))
	}
	if strings.TrimSpace(text) == strings.TrimSpace(old.Object) {
		return old, nil
	}
	st, err := e.replaceNote(ctx, old, text, memory.WriterCLI, "ui")
	if err != nil {
		return st, err
	}
	if closed, err := e.store.Statement(ctx, e.acct, id); err == nil {
		e.noteChanged(ctx, closed)
	}
	e.noteChanged(ctx, st)
	return st, nil
}

// replaceNote writes text as the successor of note old: same class,
// category, pin and place, the old evidence kept before the new.
func (e *Engine) replaceNote(ctx context.Context, old memory.Statement, text string, writer memory.Writer, source string) (memory.Statement, error) {
	p, err := e.propose(ctx, Write{Draft: memory.Draft{Kind: memory.KindNote, Object: text, Class: old.Class,
		Category: old.Category, Pinned: old.Pinned, Evidence: memory.Evidence{Source: source}},
		Writer: writer, Place: &memory.Place{}})
	if err != nil {
		return old, err
	}
	st := p.Statement
	st.Scope = old.Scope
	st.Evidence = append(slices.Clone(old.Evidence), st.Evidence...)
	now := e.now().UTC()
	p.Statement = st
	p.Decide = func([]memory.Statement) temporal.Plan {
		return temporal.Plan{Row: st, Close: []temporal.Close{{ID: old.ID, InvalidAt: now, Reason: memory.ReasonSuperseded}}}
	}
	out, err := e.store.ApplyStatements(ctx, e.acct, []temporal.Proposal{p})
	if err != nil {
		return old, err
	}
	return out[0].Statement, nil
}

// MoveFact places a current note or fact at another rung of place p's
// ladder, so what a turn reads changes with it. The row is copied to the
// new place with both clocks kept, and the old row closes as moved
// (withdrawn: as-of reads see the copy only). At the new place the usual
// rules hold: a one-value slot there keeps one current value, the newest.
func (e *Engine) MoveFact(ctx context.Context, id int64, p memory.Place, rung memory.Rung) (memory.Statement, error) {
	old, err := e.store.Statement(ctx, e.acct, id)
	if err != nil {
		return old, err
	}
	if !old.Current() {
		return old, memory.Errorf(memory.CodeConflict, "statement %d is not current (%s): only current rows are moved", id, reasonOr(old.Reason, "closed"))
	}
	if _, ok := p.Key(rung); !ok {
		return old, memory.Errorf(memory.CodeInvalid, "this place has no %q rung: use worktree, project, repo (when it is a git repository) or everywhere", rung)
	}
	if !temporal.Visible(old.Scope, p, memory.RungEverywhere) {
		return old, memory.Errorf(memory.CodeInvalid, "statement %d is placed at %s %s, which this place does not see: open it from a directory where it applies", id, old.Scope.Rung, old.Scope.Key)
	}
	scope := temporal.Place(e.rungs(), p, old.Class, old.Category, rung)
	if scope.Rung != rung {
		what := "an environment fact"
		if old.Class != memory.ClassEnvironment {
			what = "a row in category " + strconv.Quote(old.Category)
		}
		return old, memory.Errorf(memory.CodeInvalid, "%s stays within its project: it cannot be placed at %s", what, rung)
	}
	if scope == old.Scope {
		return old, nil
	}
	st := old
	st.ID, st.Scope, st.ExpiredAt, st.Reason, st.ReplacedBy = 0, scope, time.Time{}, "", 0
	st.Evidence = slices.Clone(old.Evidence)
	restatement := e.cfg.Temporal.Restatement
	moved := temporal.Close{ID: old.ID, Reason: memory.ReasonMoved}
	decide := func(slot []memory.Statement) temporal.Plan {
		if st.Kind == memory.KindNote {
			return temporal.Plan{Action: temporal.Insert, Row: st, Close: []temporal.Close{moved}}
		}
		others := slices.DeleteFunc(slices.Clone(slot), func(r memory.Statement) bool { return r.ID == old.ID })
		plan := temporal.Decide(st, others, restatement)
		if plan.Action == temporal.Restate {
			// The same value already holds at the new place: the copy
			// still records that this row now lives there.
			plan = temporal.Plan{Action: temporal.Insert, Row: st}
		}
		plan.Close = append(plan.Close, moved)
		return plan
	}
	see := memory.SightOf(p, memory.RungEverywhere)
	out, err := e.store.ApplyStatements(ctx, e.acct, []temporal.Proposal{{Statement: st, Sight: see, Decide: decide}})
	if err != nil {
		return old, err
	}
	e.noteChanged(ctx, out[0].Statement)
	return out[0].Statement, nil
}

func reasonOr(r memory.Reason, def string) string {
	if r == "" {
		return def
	}
	return string(r)
}

// MoveFactFrom moves a row along the ladder of the place that holds dir.
func (e *Engine) MoveFactFrom(ctx context.Context, id int64, dir string, rung memory.Rung) (memory.Statement, error) {
	p, err := e.resolve(dir)
	if err != nil {
		return memory.Statement{}, err
	}
	return e.MoveFact(ctx, id, p, rung)
}
