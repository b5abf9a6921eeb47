package storetest

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// updating reports whether the test binary was run with -update (the flag
// of the store package's own golden tests): the golden file is rewritten
// from the store under test. Only SQLite, the reference, declares it:
// go test ./internal/sqlite -run Conformance -update.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenPath is the golden file beside this package, found from the test's
// working directory (a store package's directory).
const goldenPath = "../storetest/testdata/search.golden.json"

// vocabulary of the golden corpus: prose, code-shaped words and CJK, so
// every tokenizer path reaches the index.
var (
	goldenProse = strings.Fields(`deploy release render oregon database migration postgres sqlite index query
		latency cache eviction flaky test retry timeout budget token session worktree branch commit review
		refactor parser lexer grammar golden fixture benchmark profile memory recall summary consolidate
		vault schema backup restore tenant account gateway proxy certificate rotate secret rotate alert`)
	goldenCode = strings.Fields(`TestParseURL internal/net/url_test.go getUserName v2.3.1 pgxpool.New
		ctx.Done() http.HandlerFunc snake_case_name kebab-case-name CamelCaseName README.md go.mod
		SELECT_COUNT tsvector @@ to_tsquery FTS5 bm25() cmd/cairn/main.go`)
	goldenCJK = strings.Fields(`我们决定统一用pnpm 数据库迁移已经完成 缓存失效导致测试不稳定 部署到俄勒冈
		向量检索 全文索引 会话摘要 记忆整理`)
)

// rng is a tiny deterministic generator (no math/rand: its streams may
// change between Go releases, and the golden file must not).
type rng uint64

func (r *rng) next(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int(uint64(*r>>33) % uint64(n))
}

// skewed picks an index below n, low ones far more often (about Zipf's
// law), so some words are common and most are rare, as in real text.
func (r *rng) skewed(n int) int { return r.next(r.next(n) + 1) }

// syllables make the rare words of the corpus.
var syllables = strings.Fields("ka lo mi ne ru sa ti vo zu be da fe gi ho ju")

func (r *rng) sentence(words int) string {
	var b []string
	for range words {
		switch k := r.next(20); {
		case k < 4:
			b = append(b, goldenProse[r.next(len(goldenProse))])
		case k < 17:
			w := r.skewed(len(syllables) * len(syllables) * len(syllables))
			b = append(b, syllables[w%15]+syllables[w/15%15]+syllables[w/225])
		case k < 19:
			b = append(b, goldenCode[r.next(len(goldenCode))])
		default:
			b = append(b, goldenCJK[r.next(len(goldenCJK))])
		}
	}
	return strings.Join(b, " ")
}

// goldenQueries are asked of every layer.
var goldenQueries = []string{
	"deploy render oregon",
	"flaky test retry",
	"TestParseURL url_test.go",
	"parse url",
	"user name",
	"v2.3.1 release",
	"pgxpool database",
	"数据库迁移",
	"缓存 测试",
	"pnpm",
	"snake case name",
	"kebab-case-name",
	"bm25 FTS5 tsvector",
	"golden fixture benchmark",
	"secret rotate certificate",
	"main.go cmd",
	"summary of the session memory",
	"cache eviction latency budget",
	"kaka lomi",
	"nekaka mika rulo",
	"kaloka deploy",
	"sakaka timika",
}

// goldenCase is one search and its expected hits, best first.
type goldenCase struct {
	Query  string    `json:"query"`
	Layer  string    `json:"layer"`
	Arm    string    `json:"arm"`
	Hits   []string  `json:"hits"`
	Scores []float64 `json:"scores"`
}

// seedGolden writes the golden corpus: 8 sessions of 10 two-part turns at
// three places, an episode per user turn, 40 statements and a profile.
func (e *env) seedGolden() {
	t := e.t
	r := rng(12)
	places := []memory.Place{wtA, wtB, wtD}
	n := 0
	for si := range 8 {
		p := places[si%len(places)]
		start := day0.Add(time.Duration(si) * 24 * time.Hour)
		s := memory.Session{Provider: "test", ExternalID: fmt.Sprintf("g%02d", si), Place: p, StartedAt: start, EndedAt: start.Add(time.Hour)}
		for ti := range 10 {
			at := start.Add(time.Duration(ti) * time.Minute)
			n++
			user := fmt.Sprintf("u%03d %s", n, r.sentence(4+r.next(10)))
			asst := fmt.Sprintf("a%03d %s", n, r.sentence(6+r.next(30)))
			s.Turns = append(s.Turns, memory.Turn{Key: fmt.Sprint(ti), Seq: ti + 1, Request: user, Status: memory.TurnCompleted,
				StartedAt: at, EndedAt: at, Digest: user,
				Parts: []memory.Part{
					{Seq: 2*ti + 1, Role: memory.RoleUser, Kind: memory.KindText, Text: user, Time: at},
					{Seq: 2*ti + 2, Role: memory.RoleAssistant, Kind: memory.KindText, Text: asst, Time: at},
				}})
		}
		sid, turns := e.save(memory.LocalAccount, s)
		for ti := range 10 {
			if r.next(3) == 0 {
				continue
			}
			ep := e.episode(sid, turns[fmt.Sprint(ti)], p, start.Add(time.Duration(ti)*time.Minute), fmt.Sprintf("e%03d %s", ti+10*si, r.sentence(5+r.next(8))))
			ep.Request, ep.Outcome = r.sentence(4), r.sentence(6)
			must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, ep))(t)
		}
	}
	var sts []memory.Statement
	for i := range 40 {
		st := memory.Statement{Kind: memory.KindNote, Object: fmt.Sprintf("n%02d %s", i, r.sentence(5+r.next(8))), Class: memory.ClassDecision,
			Category: goldenProse[r.next(len(goldenProse))], Cardinality: memory.Many, Tier: memory.TierAsserted, Writer: memory.WriterUser,
			Scope: memory.Scope{Rung: memory.RungProject, Key: places[i%len(places)].Project}, Confidence: 0.8, ValidAt: day0}
		if i%4 == 0 {
			st.Kind, st.Subject, st.Predicate, st.Cardinality = memory.KindFact, fmt.Sprint("s", i), "uses", memory.One
		}
		sts = append(sts, st)
	}
	e.apply(memory.LocalAccount, sts...)
	ok(t, e.Store.SaveProfile(e.ctx, memory.LocalAccount, "profile: "+r.sentence(20), []int64{1, 2, 3}))
}

// goldenRun asks every query of every layer and arm.
func (e *env) goldenRun() []goldenCase {
	var out []goldenCase
	first := must(e.Store.SessionID(e.ctx, memory.LocalAccount, "test", "g00"))(e.t)
	for _, q := range goldenQueries {
		ts := terms(q)
		arms := []struct {
			name  string
			layer memory.Layer
			q     memory.SearchQuery
		}{
			{"worktree", memory.L0, memory.SearchQuery{Terms: ts, Place: wtA, Rung: memory.RungWorktree, Limit: 10}},
			{"project", memory.L0, memory.SearchQuery{Terms: ts, Place: wtA, Rung: memory.RungProject, Limit: 10}},
			{"everywhere", memory.L0, memory.SearchQuery{Terms: ts, Place: wtA, Rung: memory.RungEverywhere, Limit: 10}},
			{"match-first", memory.L0, memory.SearchQuery{Terms: ts, Match: ts[:min(1, len(ts))], Place: wtA, Rung: memory.RungEverywhere, Limit: 10}},
			{"exclude-since", memory.L0, memory.SearchQuery{Terms: ts, Place: wtA, Rung: memory.RungEverywhere, ExcludeSession: first, Since: day0.Add(36 * time.Hour), Limit: 5}},
			{"statements", memory.L1, memory.SearchQuery{Terms: ts, Place: wtA, Rung: memory.RungEverywhere, Limit: 10}},
			{"episodes", memory.L2, memory.SearchQuery{Terms: ts, Place: wtA, Rung: memory.RungEverywhere, Limit: 10}},
			{"profile", memory.L3, memory.SearchQuery{Terms: ts}},
		}
		for _, a := range arms {
			if len(ts) == 0 {
				continue
			}
			hits := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, a.layer, a.q))(e.t)
			c := goldenCase{Query: q, Layer: string(a.layer), Arm: a.name}
			for _, h := range hits {
				c.Hits = append(c.Hits, strings.Fields(h.Text)[0])
				c.Scores = append(c.Scores, math.Round(h.BM25*1e6)/1e6)
			}
			out = append(out, c)
		}
	}
	return out
}

// testSearchGolden checks that the store finds the same rows at each k as
// the golden file, recorded from SQLite: where two rows tie on score,
// their order is free, so sets are compared at each k where the score
// falls. Scores are compared too, to six places.
func testSearchGolden(t *testing.T, open Open) {
	e := newEnv(t, open)
	e.seedGolden()
	got := e.goldenRun()
	path := filepath.FromSlash(goldenPath)
	if updating() {
		b, _ := json.MarshalIndent(got, "", "  ")
		ok(t, os.WriteFile(path, append(b, '\n'), 0o644))
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (record it from SQLite with -update)", err)
	}
	var want []goldenCase
	ok(t, json.Unmarshal(raw, &want))
	if len(want) != len(got) {
		t.Fatalf("%d cases, golden has %d", len(got), len(want))
	}
	hits := 0
	for i, w := range want {
		g := got[i]
		hits += len(w.Hits)
		name := fmt.Sprintf("%q %s/%s", w.Query, w.Layer, w.Arm)
		if g.Query != w.Query || g.Arm != w.Arm || len(g.Hits) != len(w.Hits) {
			t.Errorf("%s: %d hits %v, want %d %v", name, len(g.Hits), g.Hits, len(w.Hits), w.Hits)
			continue
		}
		for k := 1; k <= len(w.Hits); k++ {
			if k < len(w.Hits) && w.Scores[k-1]-w.Scores[k] < 1e-6 {
				continue // a tie: the order within it is free
			}
			a, b := slices.Clone(g.Hits[:k]), slices.Clone(w.Hits[:k])
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("%s: hit set at k=%d is %v, want %v", name, k, a, b)
				break
			}
		}
		for k := range w.Scores {
			if d := math.Abs(g.Scores[k] - w.Scores[k]); d > 2e-6*math.Max(1, math.Abs(w.Scores[k])) {
				t.Errorf("%s: score %d is %v, want %v", name, k, g.Scores[k], w.Scores[k])
				break
			}
		}
	}
	if hits < 200 {
		t.Fatalf("the golden searches found only %d rows: the corpus no longer exercises ranking", hits)
	}
}
