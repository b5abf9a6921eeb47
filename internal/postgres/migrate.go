package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in order; their numbers run
// 1, 2, 3 … with no gaps (a test enforces it).
func migrations() []migration {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		panic(err) // embedded at build time
	}
	var out []migration
	for _, e := range entries {
		num, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			panic("migration file without a number: " + e.Name())
		}
		b, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			panic(err)
		}
		out = append(out, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out
}

// SchemaVersion is the newest schema this binary knows.
func SchemaVersion() int { return len(migrations()) }

// migrateLock is the advisory lock key that serializes migrators.
// It is an int64 (PostgreSQL's bigint) on every platform: untyped, it
// would not fit a 32-bit int.
const migrateLock int64 = 0x6361_6972_6e // "cairn"

// Migrate brings the schema at ownerDSN (connected as the role that owns
// the tables) to this binary's version, each migration in its own
// transaction, and grants the application role appRole what the server
// needs: rows of the tables (row-level security still applies to it),
// the sequences, and the functions. A schema newer than this binary is
// refused.
func Migrate(ctx context.Context, ownerDSN, appRole string) error {
	conn, err := pgx.Connect(ctx, ownerDSN)
	if err != nil {
		return memory.Wrap(memory.CodeUnavailable, "connect to PostgreSQL as the owner", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrateLock); err != nil {
		return memory.Wrap(memory.CodeInternal, "lock the schema for migration", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrateLock)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    bigint PRIMARY KEY,
		name       text   NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return memory.Wrap(memory.CodeInternal, "create the migrations table", err)
	}
	var current int
	if err := conn.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return memory.Wrap(memory.CodeInternal, "read the schema version", err)
	}
	if current > SchemaVersion() {
		return memory.Errorf(memory.CodeConflict, "the PostgreSQL schema has version %d, newer than this cairn understands (%d); upgrade cairn", current, SchemaVersion())
	}
	for _, m := range migrations() {
		if m.version <= current {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %04d_%s: %w", m.version, m.name, err)
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.version, m.name)
			return err
		})
		if err != nil {
			return memory.Wrap(memory.CodeInternal, "migrate the PostgreSQL store", err)
		}
	}
	if appRole == "" {
		return nil
	}
	var schemaName string
	if err := conn.QueryRow(ctx, `SELECT current_schema()`).Scan(&schemaName); err != nil {
		return memory.Wrap(memory.CodeInternal, "read the current schema", err)
	}
	currentSchema := pgx.Identifier{schemaName}.Sanitize()
	role := pgx.Identifier{appRole}.Sanitize()
	for _, q := range []string{
		`GRANT USAGE ON SCHEMA ` + currentSchema + ` TO ` + role,
		`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ` + currentSchema + ` TO ` + role,
		`REVOKE INSERT, UPDATE, DELETE ON accounts, schema_migrations FROM ` + role,
		`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ` + currentSchema + ` TO ` + role,
		`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ` + currentSchema + ` TO ` + role,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return memory.Wrap(memory.CodeInternal, "grant the application role "+appRole, err)
		}
	}
	return nil
}

// Version is the schema version recorded in the store.
func (db *DB) Version(ctx context.Context) (int, error) {
	var v int
	err := db.pool.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	if err != nil {
		return 0, memory.Wrap(memory.CodeUnavailable, "read the schema version of "+db.dsn+" (not migrated? with CAIRN_POSTGRES_OWNER set to the owner role's DSN, cairn migrates it)", err)
	}
	return v, nil
}
