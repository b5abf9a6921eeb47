package rank

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// TestPlanKeepsTheTopOfFuse: reading only the contexts Need names gives
// the same top keep rows, with the same scores, as Fuse given every
// context, over random candidate sets.
func TestPlanKeepsTheTopOfFuse(t *testing.T) {
	w := weights
	w.DerivedFloor = 0.3
	words := []string{"deploy", "render", "billing", "queue", "retry", "cache", "token", "lunch"}
	terms := []Term{{"deploy", 0.7}, {"render", 2.1}, {"bill", 1.3}, {"queue", 0.2}, {"retri", 3.5}} // as QueryTerms stems them
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(7, 11))
	sentence := func() string {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	pruned, asked, rows := 0, 0, 0
	for trial := range 400 {
		mk := func() map[memory.Layer][]memory.Match {
			r = rand.New(rand.NewPCG(uint64(trial), 3))
			layers := map[memory.Layer][]memory.Match{}
			id := int64(0)
			for _, l := range memory.Layers {
				for range r.IntN(40) {
					id++
					c := memory.Match{Layer: l, ID: id, BM25: float64(r.IntN(20)), Text: sentence(), Context: sentence(),
						Confidence: 0.5 + r.Float64()/2, Pinned: l != memory.L0 && r.IntN(10) == 0, Time: now.Add(time.Duration(r.IntN(5)) * time.Hour)}
					if l == memory.L0 {
						c.Confidence = 1
					}
					layers[l] = append(layers[l], c)
				}
			}
			return layers
		}
		want := Fuse(w, terms, mk())
		keep := 1 + trial%15
		layers := mk()
		contexts := map[int64]string{}
		for i := range layers[memory.L0] {
			c := &layers[memory.L0][i]
			contexts[c.ID], c.Context = c.Context, ""
		}
		f := Plan(w, terms, layers, keep)
		need := f.Need()
		for _, i := range need {
			f.Raw()[i].Context = contexts[f.Raw()[i].ID]
		}
		got := f.Scores()
		n := min(keep, len(want))
		if len(got) < n {
			t.Fatalf("trial %d keep %d: %d rows, want at least %d", trial, keep, len(got), n)
		}
		for i := range n {
			if got[i].ID != want[i].ID || got[i].Score != want[i].Score || got[i].Lexical != want[i].Lexical || got[i].LayerRank != want[i].LayerRank {
				t.Fatalf("trial %d keep %d, row %d: got %d (%v), want %d (%v)", trial, keep, i, got[i].ID, got[i].Score, want[i].ID, want[i].Score)
			}
		}
		rows += len(layers[memory.L0])
		asked += len(need)
		pruned += len(want) - len(got)
	}
	if asked >= rows || pruned == 0 {
		t.Fatalf("the plan saved nothing: %d contexts asked of %d raw rows, %d rows left out", asked, rows, pruned)
	}
	t.Logf("%d contexts asked of %d raw rows; %d rows left out", asked, rows, pruned)
}

func TestPlanWithoutKeepNamesEveryUsefulContext(t *testing.T) {
	terms := []Term{{"pnpm", 2}, {"lockfil", 1}} // "lockfile" stemmed
	raw := []memory.Match{
		{Layer: memory.L0, ID: 1, BM25: 3, Text: "pnpm lockfile"},       // holds both: no context needed
		{Layer: memory.L0, ID: 2, BM25: 2, Text: "use pnpm"},            // lacks one
		{Layer: memory.L0, ID: 3, BM25: 1, Text: "lunch", Context: "x"}, // has its context already
	}
	f := Plan(weights, terms, map[memory.Layer][]memory.Match{memory.L0: raw}, 0)
	if got := f.Need(); !slices.Equal(got, []int{1}) {
		t.Fatalf("need %v, want [1]", got)
	}
	if got := f.Scores(); len(got) != 3 {
		t.Fatalf("keep 0 leaves nothing out: %d rows", len(got))
	}
	if s := fmt.Sprint(ids(f.Scores())); s != "[1 2 3]" {
		t.Fatalf("order %s", s)
	}
}
