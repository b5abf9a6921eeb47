package sqlite

import (
	"context"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestEmbeddingsLifecycle(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	acct := memory.LocalAccount
	seedPlaces(t, db)
	due, err := db.DueForEmbedding(ctx, acct, memory.L0, "m1", 0, 9, 10)
	if err != nil || len(due) != 4 {
		t.Fatalf("due: %v %v", due, err)
	}
	if due[0].ID < due[1].ID || len([]rune(due[0].Text)) > 9 {
		t.Fatalf("newest first, text cut to max chars: %+v", due)
	}
	if d, _ := db.NewestUnembedded(ctx, acct, "m1", 0); !d {
		t.Fatal("newest part not due")
	}
	ids := []int64{due[0].ID, due[1].ID, due[2].ID, due[3].ID}
	vecs := [][]float32{{1, 0}, {0, 1}, {1, 1}, {-1, 0}}
	if err := db.SaveEmbeddings(ctx, acct, memory.L0, "m1", ids, vecs); err != nil {
		t.Fatal(err)
	}
	if d, _ := db.NewestUnembedded(ctx, acct, "m1", 0); d {
		t.Fatal("due after saving")
	}
	if d, _ := db.DueForEmbedding(ctx, acct, memory.L0, "m1", 2, 100, 10); len(d) != 0 {
		t.Fatal("vectors of the asked dimension are not due")
	}
	if d, _ := db.DueForEmbedding(ctx, acct, memory.L0, "m1", 3, 100, 10); len(d) != 4 {
		t.Fatal("vectors of another dimension must be due")
	}
	if d, _ := db.DueForEmbedding(ctx, acct, memory.L0, "m2", 0, 100, 10); len(d) != 4 {
		t.Fatal("another model's vectors must be due")
	}
	all, err := db.EmbeddingsSince(ctx, acct, memory.L0, "m1", 0)
	if err != nil || len(all) != 4 || all[0].ID != ids[0] || all[3].Vec[0] != -1 {
		t.Fatalf("since 0: %+v %v", all, err)
	}
	last := all[3].Seq
	if more, _ := db.EmbeddingsSince(ctx, acct, memory.L0, "m1", last); len(more) != 0 {
		t.Fatal("nothing after the last seq")
	}
	epoch0, _ := db.EmbeddingEpoch(ctx)
	// The same model again: replaced with a newer seq, the epoch stays.
	if err := db.SaveEmbeddings(ctx, acct, memory.L0, "m1", ids[:1], [][]float32{{0.5, 0.5}}); err != nil {
		t.Fatal(err)
	}
	if more, _ := db.EmbeddingsSince(ctx, acct, memory.L0, "m1", last); len(more) != 1 || more[0].Vec[0] != 0.5 {
		t.Fatalf("a replaced vector is read as new: %+v", more)
	}
	if e, _ := db.EmbeddingEpoch(ctx); e != epoch0 {
		t.Fatal("a same-model replacement moved the epoch")
	}
	// Another model replaces one row: the old one is deleted, the epoch moves.
	if err := db.SaveEmbeddings(ctx, acct, memory.L0, "m2", ids[1:2], [][]float32{{3, 4}}); err != nil {
		t.Fatal(err)
	}
	e1, _ := db.EmbeddingEpoch(ctx)
	if e1 == epoch0 {
		t.Fatal("a model change must move the epoch")
	}
	if got, _ := db.EmbeddingsSince(ctx, acct, memory.L0, "m1", 0); len(got) != 3 {
		t.Fatalf("m1 keeps %d vectors, want 3", len(got))
	}
	// Re-importing a changed session replaces its parts: their vectors go.
	grown := session("A", wtA, day0, "the deploy target is Render in Frankfurt now")
	if _, err := db.SaveSession(ctx, acct, grown); err != nil {
		t.Fatal(err)
	}
	if e2, _ := db.EmbeddingEpoch(ctx); e2 == e1 {
		t.Fatal("deleting an embedded part must move the epoch")
	}
	var orphans int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM embeddings e WHERE NOT EXISTS (SELECT 1 FROM parts p WHERE p.id = e.row_id)`).Scan(&orphans); err != nil || orphans != 0 {
		t.Fatalf("%d vectors outlived their parts (%v)", orphans, err)
	}
	counts, err := db.EmbeddingCounts(ctx, acct, "m1")
	if err != nil || counts[memory.L0][1] != 4 || counts[memory.L0][0] >= 4 {
		t.Fatalf("counts %v %v", counts, err)
	}
	// A row that is gone when its vector arrives is skipped, not stored.
	if err := db.SaveEmbeddings(ctx, acct, memory.L0, "m1", []int64{999999}, [][]float32{{1, 1}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.EmbeddingsSince(ctx, acct, memory.L0, "m1", 0); len(got) != counts[memory.L0][0] {
		t.Fatal("a vector without its row was stored")
	}
}

func TestMatchRowsAppliesTheSearchFilters(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	seedPlaces(t, db)
	var ids []int64
	rows, err := db.read.Query(`SELECT id FROM parts ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	for _, c := range []struct {
		name string
		q    memory.SearchQuery
		want int
	}{
		{"worktree", memory.SearchQuery{Place: wtA}, 1},
		{"project", memory.SearchQuery{Place: wtA, Rung: memory.RungProject}, 2},
		{"repo", memory.SearchQuery{Place: wtA, Rung: memory.RungRepo}, 3},
		{"everywhere", memory.SearchQuery{Place: wtA, Rung: memory.RungEverywhere}, 4},
		{"since", memory.SearchQuery{Place: wtA, Rung: memory.RungEverywhere, Since: day0.AddDate(0, 0, 2)}, 2},
	} {
		got, err := db.MatchRows(ctx, memory.LocalAccount, memory.L0, ids, c.q)
		if err != nil || len(got) != c.want {
			t.Errorf("%s: %v %v, want %d rows", c.name, texts(got), err, c.want)
		}
		for _, m := range got {
			if m.SessionRef == "" || m.TurnKey == "" || m.BM25 != 0 {
				t.Errorf("%s: match lacks its source: %+v", c.name, m)
			}
		}
	}
	if got, _ := db.MatchRows(ctx, memory.LocalAccount, memory.L3, ids, memory.SearchQuery{}); got != nil {
		t.Fatal("the profile has no vectors")
	}
}
