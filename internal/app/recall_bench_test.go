package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/corpus"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// recallStoreVersion names the recall benchmark's cached stores. Bump it
// when the statement generator or the way they are written changes what
// a store holds; the parts store's version is in the name too. A schema
// change alone migrates the cached store forward (see searchStoreVersion).
const recallStoreVersion = 1

// The recall requests: recallRequests in all, every recallEarlierEvery-th
// one asking about earlier work.
const (
	recallSeed         = 1
	recallRequests     = 200
	recallEarlierEvery = 5
)

// recallStore is what a cached recall store holds and what building it
// cost, kept beside the database in store.json.
type recallStore struct {
	Parts      int               `json:"parts"`
	Sessions   int               `json:"sessions"`
	Statements int               `json:"statements"` // generated and written
	Checkouts  []corpus.Checkout `json:"checkouts"`
	// Start and End bound the statements' valid times: the span of the
	// base store's sessions.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Actions counts what the write point did with the writes.
	Actions map[string]int `json:"actions"`
	// Rows and Current count the store's statement rows by kind, the
	// import's own included, and those still current.
	Rows    map[string]int `json:"rows"`
	Current map[string]int `json:"current"`
	Copy    time.Duration  `json:"copy_ns"`
	Write   time.Duration  `json:"write_ns"`
	DBBytes int64          `json:"db_bytes"`

	dir string
}

// BenchmarkRecallBlock measures the blocks cairn builds for an agent over
// a store of 100k raw parts and 10k statements (and 1M parts with 100k
// statements with CAIRN_BENCH_BIG=1). The parts store is BenchmarkSearch's;
// a copy of it gets the statements through the one write point, in valid-
// time order, and is cached outside the repository. One op is one session
// start and one request in the busiest worktree: the standing block and a
// request's block, each timed, each under a new session id so that nothing
// is excluded (ns/op is their sum). The requests cycle through a fixed list
// of recallRequests, a fifth of which ask about earlier work and so also
// search the raw layer; run whole passes:
//
//	go test -run XXX -bench BenchmarkRecallBlock -benchtime 400x ./internal/app
//
// Target: p50 ≤ 5 ms for a request's block over 1M parts and 100k
// statements.
func BenchmarkRecallBlock(b *testing.B) {
	type size struct {
		parts, statements         int
		partsLabel, statementsTag string
	}
	sizes := []size{{100_000, 10_000, "100k", "10k"}}
	if os.Getenv("CAIRN_BENCH_BIG") == "1" {
		sizes = append(sizes, size{1_000_000, 100_000, "1M", "100k"})
	}
	reqs := recallBenchRequests()
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("parts=%s,statements=%s", sz.partsLabel, sz.statementsTag), func(b *testing.B) {
			base := ensureSearchStore(b, sz.partsLabel, sz.parts)
			st := ensureMaintainedStore(b, ensureRecallStore(b, base, sz.partsLabel, sz.statements), sz.partsLabel)
			// The run writes receipts: it gets its own copy of the store.
			path := filepath.Join(b.TempDir(), "cairn.db")
			t0 := time.Now()
			if err := copyStore(filepath.Join(st.dir, "cairn.db"), path); err != nil {
				b.Fatal(err)
			}
			b.Logf("copied the store in %s", time.Since(t0).Round(time.Millisecond))
			ctx := context.Background()
			db, err := sqlite.Open(ctx, path)
			if err != nil {
				b.Fatal(err)
			}
			now := st.End.Add(time.Hour)
			db.Now = func() time.Time { return now }
			settleStore(b, db)
			eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Readers: readers(),
				Now: func() time.Time { return now }})
			defer eng.Close()
			runRecalls(b, eng, st, reqs)
		})
	}
}

// recallRequest is one request of the benchmark and whether recall takes
// it as asking about earlier work.
type recallRequest struct {
	corpus.Query
	earlier bool
}

func recallBenchRequests() []recallRequest {
	n := recallRequests / recallEarlierEvery
	plain := corpus.Queries(recallSeed, recallRequests-n)
	earlier := corpus.EarlierQueries(recallSeed, n)
	out := make([]recallRequest, 0, recallRequests)
	for i := range recallRequests {
		var q corpus.Query
		if i%recallEarlierEvery == recallEarlierEvery-1 && len(earlier) > 0 {
			q, earlier = earlier[0], earlier[1:]
		} else {
			q, plain = plain[0], plain[1:]
		}
		out = append(out, recallRequest{q, recall.AsksAboutEarlierWork(q.Text)})
	}
	return out
}

// runRecalls times the standing and request blocks and reports the
// percentiles.
func runRecalls(b *testing.B, eng *engine.Engine, st recallStore, reqs []recallRequest) {
	ctx := context.Background()
	cwd := st.Checkouts[0].Dir // the busiest worktree
	session := 0
	// Locked to one thread, the thread's CPU time is the block's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	build := func(query string, standing bool) (engine.RecallResult, time.Duration) {
		session++
		req := engine.RecallRequest{Query: query, Cwd: cwd, Provider: memory.ProviderClaudeCode,
			Session: fmt.Sprintf("recall-bench-%d", session), Start: standing}
		c0 := threadCPU()
		t0 := time.Now()
		var res engine.RecallResult
		var err error
		if standing {
			res, err = eng.Standing(ctx, req)
		} else {
			res, err = eng.Recall(ctx, req)
		}
		d := time.Since(t0)
		cpu = threadCPU() - c0
		if err != nil {
			b.Fatalf("recall %q: %v", query, err)
		}
		return res, d
	}
	// CAIRN_BENCH_DUMP=FILE writes every request's block to FILE, so two
	// builds' blocks can be compared: a change meant to be faster only
	// must leave the file the same.
	if p := os.Getenv("CAIRN_BENCH_DUMP"); p != "" {
		var sb strings.Builder
		for _, r := range reqs {
			res, _ := build(r.Text, false)
			fmt.Fprintf(&sb, "=== %q\n%s\n", r.Text, res.Block.Text)
		}
		// And the standing block of every worktree.
		for _, c := range st.Checkouts {
			session++
			res, err := eng.Standing(ctx, engine.RecallRequest{Cwd: c.Dir, Provider: memory.ProviderClaudeCode,
				Session: fmt.Sprintf("recall-bench-%d", session), Start: true})
			if err != nil {
				b.Fatalf("standing block at %s: %v", c.Dir, err)
			}
			fmt.Fprintf(&sb, "=== standing %s\n%s\n", c.Dir, res.Block.Text)
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// One untimed pass warms SQLite's page cache and checks that the
	// blocks hold something: a moved cache directory would leave every
	// place empty, and fast.
	lines, excerpts := 0, 0
	for _, r := range reqs {
		res, _ := build(r.Text, false)
		lines += len(res.Block.Lines)
		if r.earlier && res.Receipt != nil {
			for _, it := range res.Receipt.Items {
				if it.Layer == memory.L0 {
					excerpts++
				}
			}
		}
	}
	if std, _ := build("", true); lines == 0 || len(std.Block.Lines) == 0 || excerpts == 0 {
		b.Fatalf("blocks at %s are empty (%d request lines, %d standing lines, %d excerpts); rebuild the store (delete %s)",
			cwd, lines, len(std.Block.Lines), excerpts, st.dir)
	}

	var recallLat, earlierLat, plainLat, standingLat, recallCPU, standingCPU []time.Duration
	var tokens, standingTokens int
	sections := map[string]int{}
	type slow struct {
		r    recallRequest
		d    time.Duration
		rows int
	}
	var slowest []slow
	for i := 0; b.Loop(); i++ {
		r := reqs[i%len(reqs)]
		std, ds := build("", true)
		standingLat = append(standingLat, ds)
		standingCPU = append(standingCPU, cpu)
		standingTokens += std.Block.Tokens
		res, d := build(r.Text, false)
		recallLat = append(recallLat, d)
		recallCPU = append(recallCPU, cpu)
		if r.earlier {
			earlierLat = append(earlierLat, d)
		} else {
			plainLat = append(plainLat, d)
		}
		tokens += res.Block.Tokens
		if res.Receipt != nil {
			for _, it := range res.Receipt.Items {
				sections[it.Section]++
			}
		}
		if i < len(reqs) {
			slowest = append(slowest, slow{r, d, len(res.Block.Lines)})
		}
	}
	n := len(recallLat)
	b.ReportMetric(ms(percentile(recallLat, 50)), "recall-p50-ms")
	b.ReportMetric(ms(percentile(recallLat, 95)), "recall-p95-ms")
	b.ReportMetric(ms(percentile(recallLat, 99)), "recall-p99-ms")
	b.ReportMetric(ms(percentile(recallCPU, 50)), "recall-cpu-p50-ms")
	b.ReportMetric(ms(percentile(recallCPU, 95)), "recall-cpu-p95-ms")
	b.ReportMetric(ms(percentile(standingCPU, 50)), "standing-cpu-p50-ms")
	b.ReportMetric(ms(percentile(earlierLat, 50)), "earlier-p50-ms")
	b.ReportMetric(ms(percentile(earlierLat, 95)), "earlier-p95-ms")
	b.ReportMetric(ms(percentile(plainLat, 50)), "plain-p50-ms")
	b.ReportMetric(ms(percentile(standingLat, 50)), "standing-p50-ms")
	b.ReportMetric(ms(percentile(standingLat, 95)), "standing-p95-ms")
	b.ReportMetric(ms(percentile(standingLat, 99)), "standing-p99-ms")
	b.ReportMetric(float64(tokens)/float64(max(n, 1)), "block-tokens")
	b.ReportMetric(float64(standingTokens)/float64(max(n, 1)), "standing-tokens")

	var sb strings.Builder
	fmt.Fprintf(&sb, "%d parts, statement rows %v (current %v); %d requests at %s, %d asking about earlier work\n",
		st.Parts, st.Rows, st.Current, n, cwd, len(earlierLat))
	names := make([]string, 0, len(sections))
	for k := range sections {
		names = append(names, k)
	}
	slices.Sort(names)
	sb.WriteString("  rows per request block:")
	for _, k := range names {
		fmt.Fprintf(&sb, " %s %.2f", k, float64(sections[k])/float64(max(n, 1)))
	}
	sb.WriteByte('\n')
	fmt.Fprintf(&sb, "  earlier p99 %.2f ms, plain p95 %.2f ms, standing max %.2f ms\n",
		ms(percentile(earlierLat, 99)), ms(percentile(plainLat, 95)), ms(percentile(standingLat, 100)))
	slices.SortFunc(slowest, func(a, b slow) int { return int(b.d - a.d) })
	for _, s := range slowest[:min(5, len(slowest))] {
		fmt.Fprintf(&sb, "  slow: %6.2f ms  %2d rows  earlier=%-5v %s %.80q\n", ms(s.d), s.rows, s.r.earlier, s.r.Kind, s.r.Text)
	}
	b.Log(sb.String())
}

// ensureRecallStore returns the cached store of base's parts and m
// statements, building it first if needed.
func ensureRecallStore(b *testing.B, base searchStore, label string, m int) recallStore {
	b.Helper()
	cache, err := corpus.DefaultCacheDir()
	if err != nil {
		b.Fatal(err)
	}
	prefix := fmt.Sprintf("recall-store-%s-%d-", label, m)
	name := fmt.Sprintf("%sv%d-sv%d", prefix, recallStoreVersion, searchStoreVersion)
	adoptOlderSchema(cache, name)
	dir, err := corpus.EnsureBuilt(cache, name, func(tmp string) error {
		return buildRecallStore(b, tmp, base, m)
	})
	if err != nil {
		b.Fatal(err)
	}
	removeOlderStores(cache, prefix, dir)
	var st recallStore
	readStoreJSON(b, filepath.Join(dir, "store.json"), &st)
	st.dir = dir
	b.Logf("store %s: %d parts, %d statements written (%v) in %s after a copy of %s; rows %v; db %.1f MB",
		dir, st.Parts, st.Statements, st.Actions, st.Write.Round(time.Second), st.Copy.Round(time.Second), st.Rows, float64(st.DBBytes)/1e6)
	return st
}

// buildRecallStore copies base's database into dir and writes m generated
// statements into it through the engine's write point, each in its own
// transaction, with the store's clock at the statement's valid time.
func buildRecallStore(b *testing.B, dir string, base searchStore, m int) error {
	src := filepath.Join(base.dir, "cairn.db")
	start, end, err := checkpointAndSpan(src)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "cairn.db")
	t0 := time.Now()
	if err := copyStore(src, path); err != nil {
		return err
	}
	st := recallStore{Parts: base.Parts, Sessions: base.Sessions, Statements: m, Checkouts: base.Checkouts,
		Start: start, End: end, Copy: time.Since(t0), Actions: map[string]int{}}
	gen, err := corpus.Statements(corpus.StatementsOptions{Statements: m, Seed: recallSeed, Checkouts: base.Checkouts, Start: start, End: end})
	if err != nil {
		return err
	}
	places := make([]memory.Place, len(base.Checkouts))
	for i, c := range base.Checkouts {
		if places[i], err = gitdir.Resolve(c.Dir); err != nil {
			return fmt.Errorf("resolve %s: %w", c.Dir, err)
		}
	}
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	clock := start
	db.Now = func() time.Time { return clock }
	eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Now: func() time.Time { return end }})
	t1 := time.Now()
	for _, s := range gen {
		// A statement is recorded a little after it became true.
		clock = s.Draft.ValidAt.Add(time.Minute)
		w := engine.Write{Draft: s.Draft, Writer: s.Writer, UserText: s.UserText, Place: &places[s.Checkout]}
		res, err := eng.Write(ctx, w)
		if err != nil {
			eng.Close()
			return fmt.Errorf("write %+v: %w", s.Draft, err)
		}
		st.Actions[res.Action]++
	}
	st.Write = time.Since(t1)
	if err := eng.Close(); err != nil {
		return err
	}
	b.Logf("wrote %d statements in %s (%.0f/s)", m, st.Write.Round(time.Millisecond), float64(m)/st.Write.Seconds())
	if err := countStatements(path, &st); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	st.DBBytes = fi.Size()
	raw, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "store.json"), append(raw, '\n'), 0o644)
}

// checkpointAndSpan folds the base store's write-ahead log into its
// database file, so that the file alone is the store, and reads the span
// of its sessions.
func checkpointAndSpan(path string) (start, end time.Time, err error) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return start, end, err
	}
	defer db.Close()
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return start, end, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	var lo, hi int64
	if err := db.QueryRow(`SELECT MIN(started_at), MAX(started_at) FROM sessions WHERE started_at > 0`).Scan(&lo, &hi); err != nil {
		return start, end, fmt.Errorf("session span of %s: %w", path, err)
	}
	return time.UnixMilli(lo).UTC(), time.UnixMilli(hi).UTC(), nil
}

// copyStore copies a database file and its write-ahead log, if any.
func copyStore(src, dst string) error {
	if err := copyDBFile(src, dst); err != nil {
		return err
	}
	if fi, err := os.Stat(src + "-wal"); err == nil && fi.Size() > 0 {
		return copyDBFile(src+"-wal", dst+"-wal")
	}
	return nil
}

func copyDBFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return out.Close()
}

// countStatements records the store's statement rows by kind.
func countStatements(path string, st *recallStore) error {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT kind, COUNT(*), SUM(expired_at = 0 AND invalid_at = 0) FROM statements GROUP BY kind`)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.Rows, st.Current = map[string]int{}, map[string]int{}
	for rows.Next() {
		var k string
		var n, cur int
		if err := rows.Scan(&k, &n, &cur); err != nil {
			return err
		}
		st.Rows[k], st.Current[k] = n, cur
	}
	return rows.Err()
}
