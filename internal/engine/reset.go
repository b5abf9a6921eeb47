package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// resettable is a vault folder that can be wiped.
type resettable interface {
	Reset(ctx context.Context) error
}

// ResetMemory wipes the memory files of both versions (every file and
// the history) and phase 1's and 2's state, so everything is extracted
// and consolidated afresh. The statements, the sessions and their flags
// stay. It runs under the consolidation lease, so it never pulls the
// folder from under a pass.
func (e *Engine) ResetMemory(ctx context.Context) error {
	if !e.HasVault() {
		return memory.Errorf(memory.CodeUnavailable, "this cairn runs without memory files, so there is nothing to reset")
	}
	acct := e.acct
	ok, err := e.store.AcquireLease(ctx, acct, consolidateLease, e.owner, e.now().Add(e.leaseLen()))
	if err != nil {
		return err
	}
	if !ok {
		return memory.Errorf(memory.CodeConflict, "a consolidation is running; try again when it ends")
	}
	defer func() { _ = e.store.ReleaseLease(context.WithoutCancel(ctx), acct, consolidateLease, e.owner) }()
	for _, v := range []string{distill.V1, distill.V2} {
		vf, err := e.vault(v)
		if err != nil {
			return err
		}
		r, ok := vf.(resettable)
		if !ok {
			return memory.Errorf(memory.CodeInternal, "the %s memory folder cannot be reset", v)
		}
		if err := r.Reset(ctx); err != nil {
			return err
		}
	}
	if err := e.store.ResetPhases(ctx, acct); err != nil {
		return err
	}
	for _, v := range []string{distill.V1, distill.V2} {
		for _, k := range []string{lastPassKey(v), droppedKey(v)} {
			if err := e.store.SetSetting(ctx, acct, k, ""); err != nil {
				return err
			}
		}
	}
	return nil
}
