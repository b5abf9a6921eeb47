package sqlite

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
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
		panic(err) // embedded at build time: cannot fail at run time
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

// migrate applies migrations up to target, each in its own transaction.
// The version check happens inside each transaction, so two processes
// opening a new store at once do not both apply a migration.
func (db *DB) migrate(ctx context.Context, target int) error {
	if _, err := db.execWrite(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT    NOT NULL,
		applied_at INTEGER NOT NULL
	)`); err != nil {
		return memory.Wrap(memory.CodeInternal, "create migrations table", err)
	}
	current, err := db.Version(ctx)
	if err != nil {
		return err
	}
	if current > SchemaVersion() {
		return memory.Errorf(memory.CodeConflict,
			"the store at %s has schema version %d, newer than this cairn understands (%d); upgrade cairn, or point --home at another data dir",
			db.path, current, SchemaVersion())
	}
	for _, m := range migrations() {
		if m.version > target {
			break
		}
		err := db.Update(ctx, func(tx *Tx) error {
			var have int
			if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
				return err
			}
			if have >= m.version {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %04d_%s: %w", m.version, m.name, err)
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, millis(tx.Now))
			return err
		})
		if err != nil {
			return memory.Wrap(memory.CodeInternal, "migrate store", err)
		}
	}
	return nil
}

// readVersion reads the schema version through the read pool; a store
// with no migrations table reads as an error, and is migrated.
func (db *DB) readVersion(ctx context.Context) (int, error) {
	var v int
	err := db.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

// Version is the schema version recorded in the store.
func (db *DB) Version(ctx context.Context) (int, error) {
	var v int
	unlock := db.lockWriter(ctx)
	c, err := db.writerLocked(ctx)
	if err == nil {
		err = c.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	}
	unlock()
	if err != nil {
		return 0, memory.Wrap(memory.CodeInternal, "read schema version", err)
	}
	return v, nil
}
