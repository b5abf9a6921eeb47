// Package pgtest gives a test its own schema in the PostgreSQL that
// CAIRN_TEST_POSTGRES names (the owner role's DSN, URL form), with
// CAIRN_TEST_POSTGRES_APP naming the application role (neither superuser
// nor BYPASSRLS). .ci/run starts one and sets both; without the first, a
// test that asks for a schema skips, saying loudly that PostgreSQL was not
// tested.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// DSNs are the owner's and the application role's DSNs from the
// environment; app is "" when only the owner is given. A test is skipped
// when there is no owner DSN.
func DSNs(t testing.TB) (owner, app string) {
	t.Helper()
	owner = os.Getenv("CAIRN_TEST_POSTGRES")
	if owner == "" {
		t.Skip("SKIPPED LOUDLY: CAIRN_TEST_POSTGRES is not set, so PostgreSQL was NOT tested; set it to an owner DSN (see docs/postgres.md) or run .ci/run")
	}
	return owner, os.Getenv("CAIRN_TEST_POSTGRES_APP")
}

// Schema creates an empty schema, dropped when the test ends, and returns
// the owner's and the application role's DSNs bound to it (the app's is
// the owner's when no app role is given) and the app role's name ("" then).
// The schema is not migrated.
func Schema(t testing.TB) (ownerDSN, appDSN, appRole string) {
	t.Helper()
	owner, app := DSNs(t)
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
	ownerDSN = WithSchema(t, owner, schema)
	appDSN = ownerDSN
	if app != "" {
		cfg, err := pgx.ParseConfig(app)
		if err != nil {
			t.Fatal(err)
		}
		appRole, appDSN = cfg.User, WithSchema(t, app, schema)
	}
	return ownerDSN, appDSN, appRole
}

// WithSchema sets a DSN's search_path.
func WithSchema(t testing.TB, dsn, schema string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("CAIRN_TEST_POSTGRES must be a postgres:// URL, got %q", dsn)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
