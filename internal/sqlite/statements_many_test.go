package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// TestManyValueSlotExactCopy: in a many-value slot, a value equal to an
// old current row (far beyond the 32 most recent) restates that row, a
// value equal only in its first 100 bytes is new, and a closed row's
// value is not a copy.
func TestManyValueSlotExactCopy(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	place := memory.Place{Worktree: "/w", Project: "/w/.git", Repo: "github.com/a/b"}
	see := memory.SightOf(place, memory.RungEverywhere)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	long := strings.Repeat("src/deeply/nested/package/", 5) // 130 bytes
	write := func(i int, object string) (memory.Statement, temporal.Action) {
		t.Helper()
		st := memory.Statement{Kind: memory.KindEvent, Subject: "ledger", Predicate: "edited_file", Object: object,
			Cardinality: memory.Many, Tier: memory.TierObserved, Writer: memory.WriterTool,
			Scope: memory.Scope{Rung: memory.RungProject, Key: place.Project}, Confidence: 0.9,
			ValidAt: start.Add(time.Duration(i) * time.Minute)}
		decide := func(slot []memory.Statement) temporal.Plan { return temporal.Decide(st, slot, 0.7) }
		row, action, err := db.ApplyStatement(ctx, 1, st, see, decide)
		if err != nil {
			t.Fatal(err)
		}
		return row, action
	}
	first, _ := write(0, long+"a.go")
	closed, _ := write(1, "cmd/removed_later.go")
	if _, err := db.write.ExecContext(ctx, `UPDATE statements SET expired_at = 1, invalid_at = 1, reason = 'retracted' WHERE id = ?`, closed.ID); err != nil {
		t.Fatal(err)
	}
	for i := 2; i < 200; i++ {
		write(i, fmt.Sprintf("pkg/%c%c/file_%d.rs", 'a'+i%26, 'a'+i/26, i*7919))
	}
	if row, action := write(300, long+"a.go"); action != temporal.Restate || row.ID != first.ID {
		t.Errorf("exact copy of row %d: action %v on row %d, want a restatement of it", first.ID, action, row.ID)
	}
	if row, action := write(301, long+"b.go"); action != temporal.Insert || row.ID == first.ID {
		t.Errorf("a value sharing only its first 100 bytes: action %v on row %d, want a new row", action, row.ID)
	}
	if _, action := write(302, "cmd/removed_later.go"); action != temporal.Insert {
		t.Errorf("the value of a closed row: action %v, want a new row", action)
	}
}

// TestManyValueSlotPlan: the exact-copy lookup seeks the many-value index
// on its value prefix, and the recent rows come from the slot index; no
// step scans the table or the whole slot for the value.
func TestManyValueSlotPlan(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	rows, err := db.write.QueryContext(ctx, `EXPLAIN QUERY PLAN `+manyValueSlot, 1, "s\x1fp", "v", "v", 1, "p", "s\x1fp")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(plan, "\n")
	for _, want := range []string{
		"USING INDEX statements_many_value (account_id=? AND slot=? AND <expr>=?)",
		"USING INDEX statements_predicate_slot (account_id=? AND predicate=? AND slot=?)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("plan lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "SCAN statements") {
		t.Errorf("plan scans the statements table:\n%s", all)
	}
}
