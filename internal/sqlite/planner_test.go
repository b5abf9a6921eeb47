package sqlite

import (
	"context"
	"fmt"
	"testing"
)

// TestRefreshPlannerStats: a store that never had statistics gets them
// from the refresh the background round runs.
func TestRefreshPlannerStats(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	for i := range 300 {
		if _, err := db.write.ExecContext(ctx, `INSERT INTO statements (account_id, kind, subject, predicate, object, slot, class, category,
			cardinality, tier, writer, place_rung, place_key, confidence, pinned, valid_at, invalid_at, created_at, expired_at, reason, replaced_by, revises)
			VALUES (1, 'fact', ?, 'decided', 'x', ?, '', '', 'one', 'asserted', 'cli', '', '', 0.9, 0, 1, 0, 1, 0, '', 0, 0)`,
			fmt.Sprint("s", i), fmt.Sprint("s", i, "\x1fdecided")); err != nil {
			t.Fatal(err)
		}
	}
	count := func() int {
		t.Helper()
		var n int
		if err := db.write.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'`).Scan(&n); err != nil || n == 0 {
			return 0
		}
		if err := db.write.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'statements'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 0 {
		t.Fatalf("control: a new store has %d statistics rows", n)
	}
	if err := db.RefreshPlannerStats(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(); n == 0 {
		t.Fatal("no statistics after the refresh")
	}
}
