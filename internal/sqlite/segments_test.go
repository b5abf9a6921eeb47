package sqlite

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// segments counts an index's segments: each has rows in its %_idx table.
func segments(t *testing.T, db *DB, fts string) int {
	t.Helper()
	var n int
	if err := db.read.QueryRow(`SELECT COUNT(DISTINCT segid) FROM ` + fts + `_idx`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMergeIndexes(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	// Each saved session is its own transaction, so its own segment.
	words := []string{"deploy", "ledger", "retry", "cache", "payments", "render"}
	for i := range 24 {
		s := session(fmt.Sprint("s", i), wtA, day0.AddDate(0, 0, i),
			fmt.Sprintf("%s the %s service, note %d", words[i%len(words)], words[(i+1)%len(words)], i),
			fmt.Sprintf("then %s again after the %s", words[(i+2)%len(words)], words[(i+3)%len(words)]))
		if _, err := db.SaveSession(ctx, memory.LocalAccount, s); err != nil {
			t.Fatal(err)
		}
	}
	search := func() []string {
		t.Helper()
		var out []string
		for _, w := range words {
			got, err := db.SearchLayer(ctx, memory.LocalAccount, memory.L0, memory.SearchQuery{Terms: []string{w}, Place: wtA, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range got {
				out = append(out, fmt.Sprintf("%s %d %.6f", w, m.ID, m.BM25))
			}
		}
		return out
	}
	before, segsBefore := search(), segments(t, db, "parts_fts")
	if segsBefore < 4 {
		t.Fatalf("%d segments before merging: the test needs several", segsBefore)
	}
	more, err := db.MergeIndexes(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !more {
		t.Fatalf("a first merge of %d segments did nothing", segsBefore)
	}
	for range 100 {
		if more, err = db.MergeIndexes(ctx, mergeRoundSteps); err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
	}
	if more {
		t.Fatal("merging never finished")
	}
	t.Logf("segments: %d before, %d after", segsBefore, segments(t, db, "parts_fts"))
	if after := segments(t, db, "parts_fts"); after >= segsBefore || after > 3 {
		t.Errorf("segments: %d before merging, %d after", segsBefore, after)
	}
	if after := search(); !slices.Equal(before, after) {
		t.Errorf("search changed by merging:\nbefore %q\nafter  %q", before, after)
	}
	// The background round's refresh merges too, and a merged index has
	// nothing left to do.
	if err := db.RefreshPlannerStats(ctx); err != nil {
		t.Fatal(err)
	}
	if more, err := db.MergeIndexes(ctx, 1); err != nil || more {
		t.Errorf("merged index: more work %v, err %v", more, err)
	}
}
