package postgres

import (
	"context"
	"testing"

	"github.com/cairn-memory/cairn/internal/postgres/pgtest"
)

// The tests run against the PostgreSQL that CAIRN_TEST_POSTGRES names
// (package pgtest); each gets a schema of its own, dropped after it.
func testDSNs(t testing.TB) (owner, app string) { return pgtest.DSNs(t) }

// freshSchema creates an empty schema, migrates it as the owner and
// grants the application role; it returns the owner's and the app's DSNs
// bound to it (the app's is the owner's when no app role is given).
func freshSchema(t testing.TB) (ownerDSN, appDSN string) {
	t.Helper()
	ownerDSN, appDSN, appRole := pgtest.Schema(t)
	if err := Migrate(context.Background(), ownerDSN, appRole); err != nil {
		t.Fatal(err)
	}
	return ownerDSN, appDSN
}
