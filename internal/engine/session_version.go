package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// SessionVersionStore records the memory version in force for each
// session when it is first seen, so a switch applies to new sessions only.
type SessionVersionStore interface {
	RecordSessionVersion(ctx context.Context, acct memory.AccountID, sessionID int64, version string) error
	SessionVersion(ctx context.Context, acct memory.AccountID, sessionID int64) (string, bool, error)
}

// recordSessionVersion notes the version in force for a session seen for
// the first time; a store that keeps no versions is left alone.
func (e *Engine) recordSessionVersion(ctx context.Context, sessionID int64) error {
	vs, ok := e.store.(SessionVersionStore)
	if !ok {
		return nil
	}
	c, _, err := e.Effective(ctx)
	if err != nil {
		return err
	}
	return vs.RecordSessionVersion(ctx, e.acct, sessionID, c.Memory.Version)
}

// otherVersion reports a session recorded under a memory version that
// does not include version: it is not extracted for it. A session with no
// record (imported before versions were recorded) takes the one in force
// now, which is recorded.
func (e *Engine) otherVersion(ctx context.Context, sessionID int64, version string) (string, bool, error) {
	vs, ok := e.store.(SessionVersionStore)
	if !ok {
		return "", false, nil
	}
	rec, found, err := vs.SessionVersion(ctx, e.acct, sessionID)
	if err != nil {
		return "", false, err
	}
	if !found {
		return "", false, e.recordSessionVersion(ctx, sessionID)
	}
	if rec == version || rec == "dual" && (version == distill.V1 || version == distill.V2) {
		return "", false, nil
	}
	return "the session started under memory version " + rec + "; a switch applies to new sessions", true, nil
}
