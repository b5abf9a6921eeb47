package sqlite

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

var update = flag.Bool("update", false, "rewrite golden files")

func openTest(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "dir with space", "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpenCreatesHealthyStore(t *testing.T) {
	db := openTest(t)
	h, err := db.Health(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h.Integrity != "ok" || h.JournalMode != "wal" || h.SchemaVersion != SchemaVersion() {
		t.Fatalf("health %+v", h)
	}
	if h.Rows["accounts"] != 1 {
		t.Fatalf("the local account is missing: %v", h.Rows)
	}
}

func TestMigrationsAreNumberedWithoutGaps(t *testing.T) {
	for i, m := range migrations() {
		if m.version != i+1 {
			t.Fatalf("migration %d is numbered %d", i+1, m.version)
		}
	}
}

func TestSchemaGolden(t *testing.T) {
	db := openTest(t)
	rows, err := db.read.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_master
		WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, sql string
		if err := rows.Scan(&typ, &name, &sql); err != nil {
			t.Fatal(err)
		}
		b.WriteString("-- " + typ + " " + name + "\n" + sql + ";\n\n")
	}
	golden := filepath.Join("testdata", "schema.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/sqlite -run TestSchemaGolden -update)", err)
	}
	if b.String() != string(want) {
		t.Fatalf("schema differs from %s; if the change is intended, add a migration and run with -update\n%s", golden, b.String())
	}
}

func TestOlderStoreIsMigrated(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := openPools(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.migrate(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if v, _ := old.Version(ctx); v != 1 {
		t.Fatalf("old store at version %d", v)
	}
	if _, err := old.execWrite(ctx, `INSERT INTO settings (account_id, key, value, updated_at) VALUES (1, 'memory.recall', 'false', 1)`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(ctx); v != SchemaVersion() {
		t.Fatalf("not migrated: %d", v)
	}
	var val string
	if err := db.read.QueryRow(`SELECT value FROM settings WHERE key = 'memory.recall'`).Scan(&val); err != nil || val != "false" {
		t.Fatalf("data lost in migration: %q %v", val, err)
	}
}

func TestNewerStoreIsRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.execWrite(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 0)`, SchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, path)
	if memory.ErrorCode(err) != memory.CodeConflict || !strings.Contains(err.Error(), "newer than this cairn") {
		t.Fatalf("want a conflict naming the newer schema, got %v", err)
	}
}

func TestUpdateFixesNowOnce(t *testing.T) {
	db := openTest(t)
	calls := 0
	db.Now = func() time.Time { calls++; return time.Unix(1700000000, 0) }
	err := db.Update(context.Background(), func(tx *Tx) error {
		_ = tx.Now
		_ = tx.Now
		return nil
	})
	if err != nil || calls != 1 {
		t.Fatalf("clock read %d times, err %v", calls, err)
	}
}

func TestUpdateRollsBackAndRecovers(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	put := func(v string, fail error) error {
		return db.Update(ctx, func(tx *Tx) error {
			if _, err := tx.exec(ctx, `INSERT INTO settings (account_id, key, value, updated_at) VALUES (1, ?, 'x', 1)`, v); err != nil {
				return err
			}
			return fail
		})
	}
	if err := put("kept.before", nil); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := put("rolled.back", boom); !errors.Is(err, boom) {
		t.Fatalf("want fn's error back, got %v", err)
	}
	// A failed COMMIT (a deferred foreign key fails only there, and SQLite
	// keeps the transaction open) must not leave the writer inside it.
	err = db.Update(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO settings (account_id, key, value, updated_at) VALUES (999, 'no.account', 'x', 1)`)
		return err
	})
	if err == nil {
		t.Fatal("a row with no account was committed")
	}
	if err := put("kept.after", nil); err != nil {
		t.Fatalf("write after a failed one: %v", err)
	}
	var keys []string
	rows, err := db.read.QueryContext(ctx, `SELECT key FROM settings WHERE key LIKE 'kept.%' OR key = 'rolled.back' ORDER BY key`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		rows.Scan(&k)
		keys = append(keys, k)
	}
	if strings.Join(keys, ",") != "kept.after,kept.before" {
		t.Fatalf("rows after rollbacks: %v", keys)
	}
}

// TestCancelEndsWriteAtNextStatement: statements in a write transaction
// run without a cancellation watcher (stmtCtx), so a context that ends
// mid-transaction must still stop it at the next statement, through each
// way a transaction runs one, and roll everything back.
func TestCancelEndsWriteAtNextStatement(t *testing.T) {
	db := openTest(t)
	ins := `INSERT INTO settings (account_id, key, value, updated_at) VALUES (1, ?, 'x', 1)`
	for name, run := range map[string]func(ctx context.Context, tx *Tx) error{
		"exec": func(ctx context.Context, tx *Tx) error { _, err := tx.exec(ctx, ins, "second"); return err },
		"ExecContext": func(ctx context.Context, tx *Tx) error {
			_, err := tx.ExecContext(ctx, ins, "second")
			return err
		},
		"query": func(ctx context.Context, tx *Tx) error {
			rows, err := tx.query(ctx, `SELECT key FROM settings`)
			if err == nil {
				rows.Close()
			}
			return err
		},
		"QueryRowContext": func(ctx context.Context, tx *Tx) error {
			var n int
			return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM settings`).Scan(&n)
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			err := db.Update(ctx, func(tx *Tx) error {
				if _, err := tx.exec(ctx, ins, "first."+name); err != nil {
					return err
				}
				cancel()
				return run(ctx, tx)
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("a statement after the context ended: got %v, want context.Canceled", err)
			}
			var n int
			if err := db.read.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM settings WHERE key = ?`, "first."+name).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Fatal("the cancelled transaction's first row was committed")
			}
		})
	}
}

// TestWriterPragmas pins the durability of the write path: WAL with
// synchronous=NORMAL survives an application crash (a committed
// transaction is in the WAL before COMMIT returns); only a power loss or
// OS crash can lose the last transactions, never corrupt the store.
func TestWriterPragmas(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	var sync, fk int
	err = db.Update(ctx, func(tx *Tx) error {
		if err := tx.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk)
	})
	if err != nil {
		t.Fatal(err)
	}
	if mode != "wal" || sync != 1 || fk != 1 {
		t.Fatalf("writer: journal_mode %s, synchronous %d (1 = NORMAL), foreign_keys %d", mode, sync, fk)
	}
}
