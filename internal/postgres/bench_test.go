package postgres

import (
	"context"
	"testing"

	"github.com/cairn-memory/cairn/internal/storetest"
)

// BenchmarkStore is storetest's shared benchmark on PostgreSQL, beside
// SQLite's (BENCHMARKS.md, "PostgreSQL store").
func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, func(b *testing.B) storetest.Fixture {
		_, appDSN := freshSchema(b)
		db, err := Open(context.Background(), appDSN)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		return storetest.Fixture{Store: db, Twin: db}
	}, 500)
}
