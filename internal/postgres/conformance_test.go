package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/storetest"
	"github.com/jackc/pgx/v5"
)

// TestConformance runs the store conformance suite on PostgreSQL.
func TestConformance(t *testing.T) {
	testDSNs(t)
	storetest.Run(t, func(t *testing.T, now func() time.Time) storetest.Fixture {
		ctx := context.Background()
		ownerDSN, appDSN := freshSchema(t)
		db, err := Open(ctx, appDSN)
		if err != nil {
			t.Fatal(err)
		}
		db.Now = now
		// The owner pool, as `cairn serve` has with CAIRN_POSTGRES_OWNER:
		// creating accounts and a purge's VACUUM FULL need it.
		if err := db.UseOwner(ctx, ownerDSN); err != nil {
			t.Fatal(err)
		}
		twin, err := Open(ctx, appDSN)
		if err != nil {
			t.Fatal(err)
		}
		twin.Now = now
		t.Cleanup(func() { twin.Close(); db.Close() })
		conn, err := pgx.Connect(ctx, ownerDSN)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var other int64
		if err := conn.QueryRow(ctx, `INSERT INTO accounts (name, created_at) VALUES ('second', 0) RETURNING id`).Scan(&other); err != nil {
			t.Fatal(err)
		}
		return storetest.Fixture{Store: db, Twin: twin, Other: memory.AccountID(other)}
	})
}
