package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/storetest"
)

// TestConformance runs the store conformance suite on SQLite, the
// reference store.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) storetest.Fixture {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "cairn.db")
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		db.Now = now
		twin, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		twin.Now = now
		t.Cleanup(func() { twin.Close(); db.Close() })
		var other int64
		err = db.Update(ctx, func(tx *Tx) error {
			return tx.QueryRowContext(ctx, `INSERT INTO accounts (name, created_at) VALUES ('second', 0) RETURNING id`).Scan(&other)
		})
		if err != nil {
			t.Fatal(err)
		}
		return storetest.Fixture{Store: db, Twin: twin, Other: memory.AccountID(other)}
	})
}
