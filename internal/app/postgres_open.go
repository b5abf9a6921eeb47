package app

import (
	"context"
	"os"

	"github.com/cairn-memory/cairn/internal/postgres"
)

// openPostgres opens the PostgreSQL store: dsn (--db) is the application
// role's, which row-level security binds; CAIRN_POSTGRES_OWNER, when set,
// is the owner role's, used to migrate the schema at start and for what
// only the owner may do (create accounts, compact after a purge). See
// docs/postgres.md.
func openPostgres(ctx context.Context, dsn string) (teamStore, error) {
	return postgres.OpenAs(ctx, dsn, os.Getenv("CAIRN_POSTGRES_OWNER"))
}
