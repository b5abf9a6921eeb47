package engine

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// workerLease keeps background rounds from piling up: a process started
// after a hook while another round runs has nothing to do.
const workerLease = "worker"

// lastRoundKey records when the last background round started; hooks start
// no new round within roundGap of it.
const (
	lastRoundKey = "worker.last_round"
	roundGap     = time.Minute
)

// WorkReport says what one background round did.
type WorkReport struct {
	Busy        bool           `json:"busy,omitempty"` // another process was running a round
	Maintenance MaintainReport `json:"maintenance"`
	Phase1      Phase1Report   `json:"phase1"`
	Phase2      []Phase2Report `json:"phase2,omitempty"`
	Embeddings  EmbedReport    `json:"embeddings"`
	// EmbedError says why embedding failed this round; the rows stay due.
	EmbedError string `json:"embed_error,omitempty"`
	// StatsError says why the planner statistics were not refreshed.
	StatsError string        `json:"stats_error,omitempty"`
	Took       time.Duration `json:"took_ns"`
}

// PlannerStats is a store whose query planner keeps statistics that the
// background round refreshes (SQLite's, which then also merges its
// full-text indexes' segments; a server refreshes its own).
type PlannerStats interface {
	RefreshPlannerStats(ctx context.Context) error
}

// WorkDue is the cheap check a hook makes before starting a background
// round: candidates due for promotion, a session due for extraction, or a
// consolidation due.
func (e *Engine) WorkDue(ctx context.Context) (bool, error) {
	c, set, err := e.Effective(ctx)
	if err != nil {
		return false, err
	}
	now := e.now()
	// A round started moments ago is still running or just did this work:
	// starting another process per prompt meanwhile would only find the
	// lease taken.
	if t, err := time.Parse(time.RFC3339Nano, set[lastRoundKey]); err == nil && now.Sub(t) >= 0 && now.Sub(t) < roundGap {
		return false, nil
	}
	if due, err := e.MaintenanceDue(ctx); err != nil || due {
		return due, err
	}
	if !c.Memory.Enabled || !c.Memory.Capture {
		return false, nil
	}
	for _, v := range versionsOf(c) {
		ids, err := e.store.EligibleSessions(ctx, e.acct, v, now.Add(-time.Duration(e.cfg.Phase1.Idle)),
			now.Add(-time.Duration(e.cfg.Phase1.MaxAge)), now, 1)
		if err != nil || len(ids) > 0 {
			return len(ids) > 0, err
		}
		if e.HasVault() && e.due(set, v) {
			return true, nil
		}
	}
	return e.EmbeddingsDue(ctx)
}

// WorkOnce is one background round: maintenance, then phase 1 for every
// due session, then phase 2 when due. Each step is a plain method tests
// call directly; this only sequences them under the worker lease.
func (e *Engine) WorkOnce(ctx context.Context) (WorkReport, error) {
	start := time.Now()
	var rep WorkReport
	acct := e.acct
	lease := max(time.Duration(e.cfg.Phase1.Lease), time.Minute)
	ok, err := e.store.AcquireLease(ctx, acct, workerLease, e.owner, e.now().Add(lease))
	if err != nil || !ok {
		rep.Busy = !ok
		return rep, err
	}
	if err := e.store.SetSetting(ctx, acct, lastRoundKey, e.now().UTC().Format(time.RFC3339Nano)); err != nil {
		return rep, err
	}
	defer func() { _ = e.store.ReleaseLease(context.WithoutCancel(ctx), acct, workerLease, e.owner) }()
	if rep.Maintenance, err = e.Maintain(ctx); err != nil {
		return rep, err
	}
	if rep.Phase1, err = e.ExtractDue(ctx); err != nil {
		return rep, err
	}
	if e.HasVault() {
		if due, err := e.ConsolidationDue(ctx); err != nil {
			return rep, err
		} else if due {
			if rep.Phase2, err = e.Consolidate(ctx, false); err != nil {
				return rep, err
			}
		}
	}
	// The query planner's statistics follow the store as it grows (an
	// embedded store has no server doing it); a failure costs only speed.
	if o, ok := e.store.(PlannerStats); ok {
		if err := o.RefreshPlannerStats(ctx); err != nil && ctx.Err() == nil {
			rep.StatsError = err.Error()
		}
	}
	// Last, so a slow or unreachable endpoint never delays memory work; a
	// failure loses nothing (the rows stay due for the next round).
	if rep.Embeddings, err = e.EmbedDue(ctx); err != nil {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		rep.EmbedError = memory.ErrorMessage(err)
		if rep.EmbedError == "" {
			rep.EmbedError = err.Error()
		}
	}
	rep.Took = time.Since(start)
	return rep, nil
}
