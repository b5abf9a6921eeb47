package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// PendingStore keeps writes that wait for their turn to end.
type PendingStore interface {
	AddPending(ctx context.Context, acct memory.AccountID, worktree string, write []byte) (int64, error)
	Pending(ctx context.Context, acct memory.AccountID, worktree string, from, to time.Time) ([]memory.PendingWrite, error)
	SettlePending(ctx context.Context, acct memory.AccountID, id int64, status string, statementID int64) error
}

// pendingGrace is how long a pending write waits for a turn of its place
// to end before it is applied anyway: a client that is never imported
// must not lose what its agent remembered.
const pendingGrace = time.Hour

// RememberLater keeps an agent's remember call made during a turn. It
// takes effect when a turn of the same place ends normally and is dropped
// if that turn is refused (seed 002). Refusals that cannot wait (a
// credential, an empty value) are reported at once.
func (e *Engine) RememberLater(ctx context.Context, w Write) (int64, error) {
	if _, err := e.propose(ctx, w); err != nil {
		return 0, err
	}
	place, err := e.writePlace(w)
	if err != nil {
		return 0, err
	}
	w.Place, w.Cwd = &place, ""
	raw, err := json.Marshal(w)
	if err != nil {
		return 0, memory.Wrap(memory.CodeInternal, "encode pending write", err)
	}
	return e.store.AddPending(ctx, e.acct, place.Worktree, raw)
}

// settlePending applies or drops the pending writes made during a turn of
// a session in place p, now that the turn's fate is known.
func (e *Engine) settlePending(ctx context.Context, p memory.Place, t memory.Turn) error {
	if p.Worktree == "" || t.StartedAt.IsZero() {
		return nil
	}
	end := t.EndedAt
	if end.IsZero() {
		end = t.StartedAt
	}
	ps, err := e.store.Pending(ctx, e.acct, p.Worktree, t.StartedAt.Add(-time.Minute), end.Add(5*time.Minute))
	if err != nil {
		return err
	}
	for _, pw := range ps {
		switch t.Status {
		case memory.TurnCompleted:
			if err := e.applyPending(ctx, pw); err != nil {
				return err
			}
		case memory.TurnRefused:
			if err := e.store.SettlePending(ctx, e.acct, pw.ID, "dropped", 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyStalePending applies pending writes no turn end claimed within the
// grace period.
func (e *Engine) applyStalePending(ctx context.Context) (int, error) {
	ps, err := e.store.Pending(ctx, e.acct, "", time.Time{}, e.now().Add(-pendingGrace))
	if err != nil {
		return 0, err
	}
	for _, pw := range ps {
		if err := e.applyPending(ctx, pw); err != nil {
			return 0, err
		}
	}
	return len(ps), nil
}

func (e *Engine) applyPending(ctx context.Context, pw memory.PendingWrite) error {
	var w Write
	if err := json.Unmarshal(pw.Write, &w); err != nil {
		return e.store.SettlePending(ctx, e.acct, pw.ID, "dropped", 0)
	}
	res, err := e.Write(ctx, w)
	if err != nil {
		if memory.ErrorCode(err) == memory.CodeInvalid {
			return e.store.SettlePending(ctx, e.acct, pw.ID, "dropped", 0)
		}
		return err
	}
	e.noteChanged(ctx, res.Statement)
	return e.store.SettlePending(ctx, e.acct, pw.ID, "applied", res.Statement.ID)
}
