package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Ingest stores sessions a client sent as records rather than as a
// transcript file (a gateway's single-turn uploads): redacted, numbered,
// placed and captured by the same path as an import.
func (e *Engine) Ingest(ctx context.Context, sessions []memory.Session) (SourceReport, error) {
	var rep SourceReport
	if len(sessions) > 0 {
		rep.Provider = sessions[0].Provider
	}
	err := e.ingest(ctx, sessions, &rep)
	return rep, err
}
