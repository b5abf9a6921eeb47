package rank

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRankScore(t *testing.T) {
	for pos, want := range []float64{1, 0.5, 1.0 / 3, 0.25} {
		if got := RankScore(pos); !near(got, want) {
			t.Errorf("RankScore(%d) = %v, want %v", pos, got, want)
		}
	}
}

func TestCoverage(t *testing.T) {
	terms := []Term{{"deploy", 1}, {"render", 3}}
	cases := []struct {
		name          string
		body, context []string
		want          float64
	}{
		{"both in the row", []string{"deploy", "render"}, nil, 1},
		{"rare term only", []string{"render"}, nil, 0.75},
		{"common term only", []string{"deploy"}, nil, 0.25},
		{"rare term in context only", []string{"deploy"}, []string{"render"}, 0.25 + 0.75*ContextShare},
		{"neither", []string{"lunch"}, []string{"weather"}, 0},
		{"context never beats the row", []string{"render"}, []string{"render"}, 0.75},
	}
	for _, c := range cases {
		if got := Coverage(terms, c.body, c.context); !near(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if got := Coverage([]Term{{"a", 0}, {"b", 0}}, []string{"a"}, nil); !near(got, 0.5) {
		t.Errorf("with no idf at all, terms count equally: %v", got)
	}
	if got := Coverage([]Term{{"known", 2}, {"unseen", 0}}, []string{"known"}, nil); !near(got, 1) {
		t.Errorf("a term no document holds must not dilute coverage: %v", got)
	}
	if Coverage(nil, []string{"a"}, nil) != 0 {
		t.Error("no terms, no coverage")
	}
}

func TestIDF(t *testing.T) {
	if !(IDF(1, 1000) > IDF(100, 1000)) || IDF(1000, 1000) < 0 || IDF(0, 1000) != 0 {
		t.Fatal("idf must fall with document frequency and stay non-negative")
	}
}

var weights = Weights{
	Layer:        map[memory.Layer]float64{memory.L1: 1.00, memory.L2: 0.92, memory.L0: 0.85, memory.L3: 0.75},
	RankShare:    0.6,
	LexicalShare: 0.4,
	PinBoost:     0.05,
}

func TestFuseFollowsTheSeedFormula(t *testing.T) {
	terms := []Term{{"pnpm", 2}}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	layers := map[memory.Layer][]memory.Match{
		memory.L1: {{Layer: memory.L1, ID: 1, BM25: 2, Text: "use pnpm", Confidence: 0.8, Time: now}},
		memory.L0: {
			{Layer: memory.L0, ID: 10, BM25: 5, Text: "we use pnpm here", Confidence: 1, Time: now},
			{Layer: memory.L0, ID: 11, BM25: 1, Text: "nothing relevant", Context: "pnpm", Confidence: 1, Time: now},
		},
		memory.L3: {{Layer: memory.L3, ID: 20, BM25: 1, Text: "prefers pnpm", Confidence: 1, Pinned: true, Time: now}},
	}
	got := Fuse(weights, terms, layers)
	want := map[int64]float64{
		1:  1.00 * (0.6*1 + 0.4*1) * 0.8,            // 0.8
		10: 0.85 * (0.6*1 + 0.4*1) * 1,              // 0.85
		11: 0.85 * (0.6*0.5 + 0.4*ContextShare) * 1, // context-only coverage
		20: 0.75*(0.6*1+0.4*1)*1 + weights.PinBoost, // pin boost after fusion
	}
	if len(got) != len(want) {
		t.Fatalf("%d results", len(got))
	}
	for _, h := range got {
		if !near(h.Score, want[h.ID]) {
			t.Errorf("row %d: score %v, want %v (rank %v lex %v)", h.ID, h.Score, want[h.ID], h.RankScore, h.Lexical)
		}
	}
	order := []int64{10, 1, 20, 11}
	for i, id := range order {
		if got[i].ID != id {
			t.Fatalf("order %v, want %v", ids(got), order)
		}
	}
}

func TestFuseIsStableOnTies(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func() map[memory.Layer][]memory.Match {
		return map[memory.Layer][]memory.Match{memory.L0: {
			{Layer: memory.L0, ID: 1, BM25: 1, Text: "x", Time: now},
			{Layer: memory.L0, ID: 2, BM25: 1, Text: "x", Time: now.Add(time.Hour)},
			{Layer: memory.L0, ID: 3, BM25: 1, Text: "x", Time: now.Add(time.Hour)},
		}}
	}
	first := ids(Fuse(weights, []Term{{"x", 1}}, mk()))
	for range 20 {
		if again := ids(Fuse(weights, []Term{{"x", 1}}, mk())); !equal(first, again) {
			t.Fatalf("%v then %v", first, again)
		}
	}
	if !equal(first, []int64{3, 2, 1}) {
		t.Fatalf("ties break by newer, then higher id: %v", first)
	}
}

func ids(s []Scored) []int64 {
	var out []int64
	for _, h := range s {
		out = append(out, h.ID)
	}
	return out
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// matchCoverage skips the context when the body holds every term; the
// score must be Coverage's over both, whatever the case.
func TestMatchCoverageIsCoverage(t *testing.T) {
	terms := []Term{{Text: "deploy", IDF: 1.2}, {Text: "oregon", IDF: 2.5}}
	long := strings.Repeat("filler words here ", 200) + "oregon"
	for _, c := range []struct{ body, context string }{
		{"deploy to oregon", "deploy again"},
		{"deploy to render", "moved to oregon"},
		{"nothing here", "nor here"},
		{"deploy", ""},
		{"", "deploy oregon"},
		{long, "deploy"},
		{"deploy", long},
		{"We're Deploying it to Oregon's region", ""},
		{"redeployment in oregonian", "deployed"},
		{"今天部署 deploy", "ＯＲＥＧＯＮ"},
	} {
		m := memory.Match{Text: c.body, Context: c.context}
		want := Coverage(terms, text.Tokens(clip(c.body)), text.Tokens(clip(c.context)))
		if got := matchCoverage(terms, termSet(terms), m); got != want {
			t.Errorf("body %.30q context %.30q: %v, want %v", c.body, c.context, got, want)
		}
	}
}
