package app

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
	"github.com/cairn-memory/cairn/internal/temporal"
)

func TestZZScratch(t *testing.T) {
	dir := os.Getenv("ZZ")
	if dir == "" {
		t.Skip()
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	if err := copyStore(filepath.Join(dir, "cairn.db"), path); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 10, 0, 0, 0, 0, time.UTC)
	eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Now: func() time.Time { return now }})
	defer eng.Close()
	cwd := "/root/.cache/cairn-bench/search-places-v2/payments-api"
	p, _ := gitdir.Resolve(cwd)
	see := memory.SightOf(p, memory.RungEverywhere)
	timeit := func(name string, n int, f func() int) {
		var ds []time.Duration
		rows := 0
		for range n {
			t0 := time.Now()
			rows = f()
			ds = append(ds, time.Since(t0))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		t.Logf("%-40s rows %6d  p50 %7.2f ms", name, rows, ms(ds[len(ds)/2]))
	}
	st := func(f memory.StatementFilter) func() int {
		return func() int {
			r, err := db.Statements(ctx, memory.LocalAccount, f)
			if err != nil {
				t.Fatal(err)
			}
			return len(r)
		}
	}
	timeit("notes current +evidence", 5, st(memory.StatementFilter{Kinds: []memory.Kind{memory.KindNote}, Sight: &see, Current: true, Evidence: true}))
	timeit("state live", 5, st(memory.StatementFilter{Kinds: []memory.Kind{memory.KindFact}, Predicates: temporal.SessionStatePredicates(), Sight: &see, Live: true}))
	timeit("facts+events current +evidence", 5, st(memory.StatementFilter{Kinds: []memory.Kind{memory.KindFact, memory.KindEvent}, Sight: &see, Current: true, Evidence: true}))
	timeit("facts+events current", 5, st(memory.StatementFilter{Kinds: []memory.Kind{memory.KindFact, memory.KindEvent}, Sight: &see, Current: true}))
	timeit("facts+events live", 5, st(memory.StatementFilter{Kinds: []memory.Kind{memory.KindFact, memory.KindEvent}, Sight: &see, Live: true}))
	timeit("LastEpisodes", 5, func() int {
		r, err := db.LastEpisodes(ctx, memory.LocalAccount, p.Worktree, 0, 2)
		if err != nil {
			t.Fatal(err)
		}
		return len(r)
	})
	timeit("Settings/Effective", 5, func() int { eng.Effective(ctx); return 0 })
	for _, q := range []string{"where did we leave off with the rate limiter?", "why does the retry queue have a race between the flush loop and shutdown?", "benchmark pageBatch on the ledger writer", "TestPoolTimeout"} {
		for _, l := range []memory.Layer{memory.L1, memory.L2, memory.L3, memory.L0} {
			timeit(string(l)+" "+q[:min(20,len(q))], 5, func() int {
				r, err := eng.Search(ctx, engine.SearchRequest{Query: q, Place: &p, Layers: []memory.Layer{l}, Limit: 60})
				if err != nil {
					t.Fatal(err)
				}
				return len(r.Hits)
			})
		}
		timeit("terms only "+q[:min(20,len(q))], 5, func() int {
			r, _ := eng.Search(ctx, engine.SearchRequest{Query: q, Place: &p, Layers: []memory.Layer{memory.L3}, Limit: 60})
			return len(r.Terms)
		})
	}

	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	q := func(name, query string, args ...any) {
		timeit(name, 5, func() int {
			rows, err := raw.Query(query, args...)
			if err != nil {
				t.Fatal(name, err)
			}
			n := 0
			for rows.Next() {
				n++
			}
			rows.Close()
			return n
		})
	}
	plan := func(query string, args ...any) {
		rows, err := raw.Query("EXPLAIN QUERY PLAN "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a, b, c int
			var d string
			rows.Scan(&a, &b, &c, &d)
			t.Logf("    plan: %s", d)
		}
		rows.Close()
	}
	match := `"retry" OR "queue" OR "race" OR "flush" OR "loop" OR "shutdown"`
	epi := `SELECT -bm25(episodes_fts, 1.0, 0.3) AS score, e.id, s.external_id, t.seq, e.summary, e.request, e.outcome FROM episodes_fts JOIN episodes e ON e.id = episodes_fts.rowid JOIN sessions s ON s.id = e.session_id JOIN turns t ON t.id = e.turn_id WHERE episodes_fts MATCH ? AND e.account_id = 1 AND e.expired_at = 0 AND e.project = ? ORDER BY score DESC, e.id DESC LIMIT 60`
	q("raw L2 search (as is)", epi, match, p.Project)
	plan(epi, match, p.Project)
	q("raw L2 fts match count", `SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ?`, match)
	q("raw L2 fts bm25 top 200 only", `SELECT rowid, -bm25(episodes_fts, 1.0, 0.3) AS s FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY s DESC LIMIT 200`, match)
	q("raw L2 fts rank top 200 only", `SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rank LIMIT 200`, match)
	stm := `SELECT s.id FROM statements_fts JOIN statements s ON s.id = statements_fts.rowid WHERE statements_fts MATCH ? ORDER BY bm25(statements_fts) LIMIT 60`
	q("raw L1 fts match join", stm, match)
	q("raw L1 fts match count", `SELECT rowid FROM statements_fts WHERE statements_fts MATCH ?`, match)
	last := `SELECT e.id, s.external_id, t.seq, e.summary FROM episodes e JOIN sessions s ON s.id = e.session_id JOIN turns t ON t.id = e.turn_id WHERE e.account_id = 1 AND e.worktree = ? AND e.expired_at = 0 AND e.session_id <> 0 ORDER BY e.at DESC, e.id DESC LIMIT 2`
	q("raw LastEpisodes", last, p.Worktree)
	plan(last, p.Worktree)
	ids := `SELECT id FROM statements WHERE account_id = 1 AND kind IN ('fact','event') AND expired_at = 0 AND invalid_at = 0`
	q("raw evidence one query for all current", `SELECT e.statement_id, e.session_id, COALESCE(s.external_id, ''), e.turn_id, COALESCE(t.seq, 0) FROM evidence e LEFT JOIN sessions s ON s.id = e.session_id LEFT JOIN turns t ON t.id = e.turn_id WHERE e.statement_id IN (`+ids+`)`)
	live := `SELECT id, subject, predicate, object FROM statements WHERE account_id = 1 AND kind IN ('fact','event') AND reason NOT IN ('retracted', 'forgotten', 'held_back', 'reopened', 'revised')`
	q("raw live facts+events (no sight)", live)
	plan(live)
	q("raw recently superseded (no index)", `SELECT id FROM statements WHERE account_id = 1 AND reason = 'superseded' AND expired_at >= ?`, now.Add(-48*time.Hour).UnixMilli())
	if _, err := raw.Exec(`CREATE INDEX zz_ep_wt ON episodes (account_id, worktree, expired_at, at); CREATE INDEX zz_st_exp ON statements (account_id, expired_at) WHERE expired_at > 0`); err != nil {
		t.Fatal(err)
	}
	q("raw LastEpisodes with worktree index", last, p.Worktree)
	q("raw recently superseded with index", `SELECT id FROM statements WHERE account_id = 1 AND reason = 'superseded' AND expired_at >= ?`, now.Add(-48*time.Hour).UnixMilli())
	timeit("LastEpisodes (store) with index", 5, func() int {
		r, _ := db.LastEpisodes(ctx, memory.LocalAccount, p.Worktree, 0, 2)
		return len(r)
	})
}
