package app

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// openPostgres opens the PostgreSQL store. internal/postgres is being
// built in parallel (issue 12); until it lands and implements teamStore,
// --db postgres://… says so plainly instead of falling back to SQLite.
func openPostgres(_ context.Context, _ string) (teamStore, error) {
	return nil, memory.Errorf(memory.CodeUnavailable, "the PostgreSQL store is not in this build yet: use a SQLite file for --db")
}
