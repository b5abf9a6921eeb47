package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// The tests run against the PostgreSQL that CAIRN_TEST_POSTGRES names
// (the owner role's DSN, URL form); CAIRN_TEST_POSTGRES_APP names the
// application role (neither superuser nor BYPASSRLS). .ci/run starts one
// and sets both. Each test gets a schema of its own, dropped after it.
func testDSNs(t testing.TB) (owner, app string) {
	owner = os.Getenv("CAIRN_TEST_POSTGRES")
	if owner == "" {
		t.Skip("SKIPPED LOUDLY: CAIRN_TEST_POSTGRES is not set, so the PostgreSQL store was NOT tested; set it to an owner DSN (see docs/postgres.md) or run .ci/run")
	}
	app = os.Getenv("CAIRN_TEST_POSTGRES_APP")
	return owner, app
}

// withSchema sets a DSN's search_path.
func withSchema(t testing.TB, dsn, schema string) string {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("CAIRN_TEST_POSTGRES must be a postgres:// URL, got %q", dsn)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// freshSchema creates an empty schema, migrates it as the owner and
// grants the application role; it returns the owner's and the app's DSNs
// bound to it (the app's is the owner's when no app role is given).
func freshSchema(t testing.TB) (ownerDSN, appDSN string) {
	t.Helper()
	owner, app := testDSNs(t)
	ctx := context.Background()
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "cairn_test_" + hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, owner)
	if err != nil {
		t.Fatalf("connect to CAIRN_TEST_POSTGRES: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), owner)
		if err == nil {
			_, _ = c.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
			c.Close(context.Background())
		}
	})
	appRole := ""
	appDSN = withSchema(t, owner, schema)
	if app != "" {
		cfg, err := pgx.ParseConfig(app)
		if err != nil {
			t.Fatal(err)
		}
		appRole, appDSN = cfg.User, withSchema(t, app, schema)
	}
	ownerDSN = withSchema(t, owner, schema)
	if err := Migrate(ctx, ownerDSN, appRole); err != nil {
		t.Fatal(err)
	}
	return ownerDSN, appDSN
}
