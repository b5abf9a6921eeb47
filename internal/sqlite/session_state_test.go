package sqlite

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// The session-state indexes name the predicates the store writes into
// its reads, word for word: a predicate added to temporal's list needs a
// migration that rebuilds them, or they stop applying.
func TestSessionStateIndexesNameThePredicates(t *testing.T) {
	db := openTest(t)
	for _, name := range []string{"statements_state_current", "statements_state_closed"} {
		var sql string
		if err := db.read.QueryRow(`SELECT sql FROM sqlite_master WHERE name = ?`, name).Scan(&sql); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(strings.Join(strings.Fields(sql), " "), "predicate IN "+sessionStateIn) {
			t.Errorf("%s is\n%s\nwhich does not name %s", name, sql, sessionStateIn)
		}
	}
	for _, p := range temporal.SessionStatePredicates() {
		if strings.ContainsAny(p, `'"\`) {
			t.Errorf("predicate %q cannot be written into SQL as it is", p)
		}
	}
}

// The standing block's two reads use those indexes and find the rows a
// plain read finds.
func TestSessionStateReads(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	var ids []int64
	for i, p := range []string{"decided", "working_on", "ci", "decided", "next_step", "decided"} {
		res, err := db.write.ExecContext(ctx, `INSERT INTO statements (account_id, kind, subject, predicate, object, slot, class, category,
			cardinality, tier, writer, place_rung, place_key, confidence, pinned, valid_at, invalid_at, created_at, expired_at, reason, replaced_by, revises)
			VALUES (1, 'fact', 'user', ?, ?, ?, '', '', 'one', 'asserted', 'cli', 'worktree', '/src/shop', 0.9, 0, 1, ?, 1, 0, '', 0, 0)`,
			p, p+string(rune('a'+i)), "user\x1f"+p, []int64{5, 0, 7, 9, 0, 0}[i])
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		ids = append(ids, id)
	}
	see := memory.Sight{Scopes: []memory.Scope{{Rung: memory.RungWorktree, Key: "/src/shop"}}}
	base := memory.StatementFilter{Kinds: []memory.Kind{memory.KindFact}, Predicates: temporal.SessionStatePredicates(), Sight: &see, Live: true}
	read := func(f memory.StatementFilter) []int64 {
		t.Helper()
		rows, err := db.Statements(ctx, memory.LocalAccount, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, r := range rows {
			out = append(out, r.ID)
		}
		return out
	}
	cur := base
	cur.Current = true
	if got, want := read(cur), []int64{ids[1], ids[4], ids[5]}; !slices.Equal(got, want) {
		t.Errorf("current: %v, want %v", got, want)
	}
	closed := base
	closed.Closed, closed.ByInvalid, closed.Limit = true, true, 5
	if got, want := read(closed), []int64{ids[3], ids[0]}; !slices.Equal(got, want) {
		t.Errorf("closed, newest first: %v, want %v", got, want)
	}
	for _, q := range []struct {
		index, sql string
	}{
		{"statements_state_current", `SELECT id FROM statements INDEXED BY statements_state_current WHERE account_id = 1
			AND expired_at = 0 AND invalid_at = 0 AND predicate IN ` + sessionStateIn},
		{"statements_state_closed", `SELECT id FROM statements WHERE account_id = 1
			AND invalid_at <> 0 AND predicate IN ` + sessionStateIn + ` ORDER BY invalid_at DESC, id DESC LIMIT 3`},
	} {
		var plan strings.Builder
		rows, err := db.read.QueryContext(ctx, `EXPLAIN QUERY PLAN `+q.sql)
		if err != nil {
			t.Fatalf("%s: %v", q.index, err)
		}
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan.WriteString(detail + "\n")
		}
		rows.Close()
		if !strings.Contains(plan.String(), q.index) || strings.Contains(plan.String(), "TEMP B-TREE") {
			t.Errorf("the read does not walk %s:\n%s", q.index, plan.String())
		}
	}
}
