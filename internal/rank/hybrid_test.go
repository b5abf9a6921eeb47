package rank

import (
	"reflect"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestReciprocalRank(t *testing.T) {
	m := func(id int64, bm25 float64) memory.Match { return memory.Match{Layer: memory.L0, ID: id, BM25: bm25} }
	lex := []memory.Match{m(1, 9), m(2, 5), m(3, 1)}
	sem := []Similar{{Match: m(3, 0), Similarity: 0.9}, {Match: m(4, 0), Similarity: 0.8}, {Match: m(1, 0), Similarity: 0.2}}
	got, sim := ReciprocalRank(60, lex, sem)
	// 1: 1/61+1/63, 3: 1/63+1/61, 2: 1/62, 4: 1/62. 1 and 3 tie: the
	// better lexical rank first; 2 and 4 tie: the lexical one first.
	var ids []int64
	for _, c := range got {
		ids = append(ids, c.ID)
	}
	if !reflect.DeepEqual(ids, []int64{1, 3, 2, 4}) {
		t.Fatalf("order %v", ids)
	}
	if got[0].BM25 != 9 || got[1].BM25 != 1 {
		t.Fatal("a row found by both legs keeps its lexical match")
	}
	if sim[4] != 0.8 || sim[3] != 0.9 || len(sim) != 3 {
		t.Fatalf("similarities %v", sim)
	}
	if only, s := ReciprocalRank(60, lex, nil); !reflect.DeepEqual(only, lex) || s != nil {
		t.Fatal("with no semantic rows the lexical order stands")
	}
	// With a small k the semantic leader overtakes a lexical third.
	got, _ = ReciprocalRank(1, []memory.Match{m(1, 3), m(2, 2), m(3, 1)}, []Similar{{Match: m(3, 0), Similarity: 1}})
	if got[0].ID != 3 {
		t.Fatalf("k=1: %v first", got[0].ID)
	}
}

func TestFuseHybridWithoutSemanticRowsIsFuse(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func() map[memory.Layer][]memory.Match {
		return map[memory.Layer][]memory.Match{
			memory.L1: {
				{Layer: memory.L1, ID: 1, BM25: 2, Text: "use pnpm for installs", Confidence: 0.8, Time: now},
				{Layer: memory.L1, ID: 2, BM25: 1, Text: "lunch is at noon", Confidence: 1, Time: now},
			},
			memory.L0: {
				{Layer: memory.L0, ID: 10, BM25: 5, Text: "we use pnpm here", Confidence: 1, Time: now},
				{Layer: memory.L0, ID: 11, BM25: 1, Text: "nothing relevant", Context: "pnpm", Confidence: 1, Time: now},
			},
			memory.L3: {{Layer: memory.L3, ID: 20, BM25: 1, Text: "prefers pnpm", Confidence: 1, Pinned: true, Time: now}},
		}
	}
	terms := []Term{{"pnpm", 2}, {"installs", 1}}
	want := Fuse(weights, terms, mk())
	legs := map[memory.Layer]Legs{}
	for l, cs := range mk() {
		legs[l] = Legs{Lexical: cs}
	}
	got := FuseHybrid(weights, Hybrid{K: 60, MinSimilarity: 0.5}, terms, legs)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("hybrid without a semantic leg differs from Fuse:\n%+v\n%+v", got, want)
	}
}

func TestFuseHybridKeepsASimilarNoteWithoutSharedWords(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w := weights
	w.DerivedFloor = 0.25
	terms := []Term{{"automobile", 2}, {"repair", 1}}
	note := memory.Match{Layer: memory.L1, ID: 7, Text: "the car is at the garage", Confidence: 1, Time: now}
	far := memory.Match{Layer: memory.L1, ID: 8, Text: "lunch at noon", Confidence: 1, Time: now}
	legs := map[memory.Layer]Legs{memory.L1: {Semantic: []Similar{{Match: note, Similarity: 0.83}, {Match: far, Similarity: 0.2}}}}
	got := FuseHybrid(w, Hybrid{K: 60, MinSimilarity: 0.5}, terms, legs)
	if len(got) != 1 || got[0].ID != 7 {
		t.Fatalf("want only the similar note, got %+v", got)
	}
	h := got[0]
	if h.Lexical != 0 || h.Similarity != 0.83 || h.LayerRank != 1 || !near(h.Score, 1.0*(0.6*1+0.4*0)*1) {
		t.Fatalf("scored %+v", h)
	}
}
