package engine

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// UsageStore records what answers used and which turns receipts served.
type UsageStore interface {
	LinkReceipts(ctx context.Context, acct memory.AccountID, provider memory.Provider, sessionRef, requestKey string, turnID int64) error
	HoldBackCandidates(ctx context.Context, acct memory.AccountID, since time.Time, min int) ([]int64, error)
	MarkEpisodesUsed(ctx context.Context, acct memory.AccountID, ids []int64) error
}

// afterSave runs for the turns a save added or changed: each receipt is
// tied to the turn its request became, and each cited memory row counts
// one use (seed 001's citation loop).
func (e *Engine) afterSave(ctx context.Context, s memory.Session, changed map[string]int64) error {
	var stmts, eps []int64
	var recaps []string
	for _, t := range s.Turns {
		id, ok := changed[t.Key]
		if !ok {
			continue
		}
		if err := e.store.LinkReceipts(ctx, e.acct, s.Provider, s.ExternalID, RequestKey(t.Request), id); err != nil {
			return err
		}
		if err := e.settlePending(ctx, s.Place, t); err != nil {
			return err
		}
		for _, ref := range t.Cited {
			if path, ok := strings.CutPrefix(ref, "v:"); ok {
				if slug, ok := recapSlug(path); ok {
					recaps = append(recaps, slug)
				}
				continue
			}
			if len(ref) < 2 {
				continue
			}
			n, err := strconv.ParseInt(ref[1:], 10, 64)
			if err != nil {
				continue
			}
			switch ref[0] {
			case 'n', 'f':
				stmts = append(stmts, n)
			case 'e':
				eps = append(eps, n)
			}
		}
	}
	if err := e.store.MarkUsed(ctx, e.acct, stmts); err != nil {
		return err
	}
	if err := e.store.MarkExtractionsUsed(ctx, e.acct, recaps); err != nil {
		return err
	}
	return e.store.MarkEpisodesUsed(ctx, e.acct, eps)
}

// holdBack withdraws model-written facts that rode at least
// temporal.holdback_refusals refused turns within the window and no turn
// that got a normal answer (seed 002); `cairn fact restore` brings one
// back.
func (e *Engine) holdBack(ctx context.Context) (int, error) {
	t := e.cfg.Temporal
	ids, err := e.store.HoldBackCandidates(ctx, e.acct, e.now().Add(-t.HoldbackWindow.D()), max(1, t.HoldbackTurns))
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if _, err := e.store.WithdrawStatement(ctx, e.acct, id, memory.ReasonHeldBack); err != nil && memory.ErrorCode(err) != memory.CodeConflict {
			return 0, err
		}
	}
	return len(ids), nil
}
