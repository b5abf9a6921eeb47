package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cairn-memory/cairn/internal/storetest"
)

// BenchmarkStore is storetest's shared benchmark on SQLite, beside
// PostgreSQL's (BENCHMARKS.md, "PostgreSQL store").
func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, func(b *testing.B) storetest.Fixture {
		db, err := Open(context.Background(), filepath.Join(b.TempDir(), "cairn.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		return storetest.Fixture{Store: db, Twin: db}
	}, 500)
}
