package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/jackc/pgx/v5"
)

// TestRowLevelSecurity proves the second wall: the application role sees
// and writes nothing without the account setting, only its account's
// rows with it, cannot switch the policies off, and a pooled connection
// keeps no account after its transaction.
func TestRowLevelSecurity(t *testing.T) {
	_, app := testDSNs(t)
	if app == "" {
		t.Skip("SKIPPED LOUDLY: CAIRN_TEST_POSTGRES_APP is not set, so row-level security was NOT tested against the application role")
	}
	ctx := context.Background()
	ownerDSN, appDSN := freshSchema(t)
	db, err := Open(ctx, appDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	owner, err := pgx.Connect(ctx, ownerDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	var other int64
	if err := owner.QueryRow(ctx, `INSERT INTO accounts (name, created_at) VALUES ('other', 0) RETURNING id`).Scan(&other); err != nil {
		t.Fatal(err)
	}
	for _, acct := range []memory.AccountID{memory.LocalAccount, memory.AccountID(other)} {
		if _, err := db.SaveSession(ctx, acct, memory.Session{Provider: "test", ExternalID: "s", Turns: []memory.Turn{{Key: "0", Seq: 1, Status: memory.TurnCompleted,
			Digest: "d", Parts: []memory.Part{{Seq: 1, Role: memory.RoleUser, Kind: memory.KindText, Text: "a secret of account"}}}}}); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := pgx.Connect(ctx, appDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)

	var super, bypass bool
	if err := conn.QueryRow(ctx, `SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user`).Scan(&super, &bypass); err != nil {
		t.Fatal(err)
	}
	if super || bypass {
		t.Fatalf("the application role is superuser=%v bypassrls=%v: row-level security would not bind it", super, bypass)
	}
	count := func(q string) int {
		t.Helper()
		var n int
		if err := conn.QueryRow(ctx, q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	tables := []string{"sessions", "turns", "parts", "fts_stats"}
	// No setting: nothing, though both accounts have rows.
	for _, tb := range tables {
		if n := count(`SELECT COUNT(*) FROM ` + tb); n != 0 {
			t.Errorf("%s without an account: %d rows visible", tb, n)
		}
	}
	if _, err := conn.Exec(ctx, `INSERT INTO settings (account_id, key, value, updated_at) VALUES (1, 'k', 'v', 0)`); err == nil {
		t.Error("a write without an account was accepted")
	}
	// With the setting, in a transaction: that account's rows only, and
	// no write for another account.
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT set_config('cairn.account', '1', true)`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM parts`).Scan(&n); err != nil || n != 1 {
		t.Errorf("parts of account 1 with its setting: %d %v", n, err)
	}
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM parts WHERE account_id = $1`, other).Scan(&n); err != nil || n != 0 {
		t.Errorf("account 1 sees %d parts of account %d (%v)", n, other, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO settings (account_id, key, value, updated_at) VALUES ($1, 'k', 'v', 0)`, other); err == nil ||
		!strings.Contains(err.Error(), "row-level security") {
		t.Errorf("a write for another account: %v", err)
	}
	tx.Rollback(ctx)
	// The setting ended with the transaction: the connection is blank again.
	tx, _ = conn.Begin(ctx)
	tx.Exec(ctx, `SELECT set_config('cairn.account', '1', true)`)
	tx.Commit(ctx)
	if n := count(`SELECT COUNT(*) FROM parts`); n != 0 {
		t.Errorf("after a committed transaction of account 1 the connection still sees %d parts", n)
	}
	// The policies cannot be switched off by the application role.
	for _, q := range []string{
		`ALTER TABLE parts DISABLE ROW LEVEL SECURITY`,
		`ALTER TABLE parts NO FORCE ROW LEVEL SECURITY`,
		`DROP POLICY account_rows ON parts`,
		`ALTER ROLE current_user BYPASSRLS`,
	} {
		if _, err := conn.Exec(ctx, q); err == nil {
			t.Errorf("the application role ran %q", q)
		}
	}
	if _, err := conn.Exec(ctx, `SET row_security = off`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `SELECT COUNT(*) FROM parts`); err == nil {
		t.Error("with row_security off the application role read a table with a policy")
	}
	// Every table that holds account rows is forced.
	rows, err := owner.Query(ctx, `SELECT c.relname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'account_id'
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND NOT (c.relrowsecurity AND c.relforcerowsecurity)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		rows.Scan(&name)
		t.Errorf("table %s has account rows but no forced row-level security", name)
	}
}
