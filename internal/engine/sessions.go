package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Sessions lists imported sessions, newest first.
func (e *Engine) Sessions(ctx context.Context, limit int) ([]memory.SessionSummary, error) {
	return e.store.ListSessions(ctx, e.acct, limit)
}

// Session loads one session with its turns and parts; ref is cairn's id or
// the client's session id (or a unique prefix of it).
func (e *Engine) Session(ctx context.Context, ref string) (memory.Session, error) {
	return e.store.LoadSession(ctx, e.acct, ref)
}
