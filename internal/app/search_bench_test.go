package app

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/corpus"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// searchStoreVersion names the search benchmark's cached stores. Bump it
// when the generated tree, the import path, the tokenizer or a migration
// changes what a store's parts or their index hold. Other schema changes
// do not rebuild: sqlite.Open migrates a cached store forward, which costs
// seconds where rebuilding 1M parts costs a quarter of an hour.
const searchStoreVersion = 2

// The search corpus: sessions in searchWorktrees git worktrees of
// searchClones clones, and the queries run over it.
const (
	searchSeed      = 1
	searchWorktrees = 20
	searchClones    = 8
	searchQueries   = 200
	searchLimit     = 10
)

// searchStore is what a cached store holds and what building it cost,
// kept beside the database in store.json.
type searchStore struct {
	Parts      int               `json:"parts"`
	Sessions   int               `json:"sessions"`
	Turns      int               `json:"turns"`
	PartsIn    []int             `json:"parts_in"`
	Checkouts  []corpus.Checkout `json:"checkouts"`
	JSONLBytes int64             `json:"jsonl_bytes"`
	Generate   time.Duration     `json:"generate_ns"`
	Import     time.Duration     `json:"import_ns"`
	DBBytes    int64             `json:"db_bytes"`
	FTSBytes   int64             `json:"fts_bytes"` // -1 when dbstat is missing
	// TextBytes sums the parts' text by role and kind.
	TextBytes map[string]int64 `json:"text_bytes"`
	TextParts map[string]int   `json:"text_parts"`

	dir string
}

// BenchmarkSearch measures engine.Search over stores of 10k and 100k L0
// parts (and 1M with CAIRN_BENCH_BIG=1), each built once through the real
// `cairn import` of a generated Claude Code tree and cached outside the
// repository. One op is one search; the queries cycle through a fixed list
// of searchQueries, so run whole passes:
//
//	go test -run XXX -bench BenchmarkSearch -benchtime 600x ./internal/app
//
// Sub-benchmarks: "worktree" searches from the busiest worktree at the
// default rung, the usual read; "everywhere" reads every place. Each
// reports p50/p95/p99 latency per search (ns/op is the mean), the database
// size and its full-text index's share.
func BenchmarkSearch(b *testing.B) {
	sizes := []struct {
		name  string
		parts int
	}{{"10k", 10_000}, {"100k", 100_000}}
	if os.Getenv("CAIRN_BENCH_BIG") == "1" {
		sizes = append(sizes, struct {
			name  string
			parts int
		}{"1M", 1_000_000})
	}
	queries := corpus.Queries(searchSeed, searchQueries)
	for _, sz := range sizes {
		b.Run("parts="+sz.name, func(b *testing.B) {
			st := ensureMaintainedSearchStore(b, ensureSearchStore(b, sz.name, sz.parts), sz.name)
			ctx := context.Background()
			// The cached store is shared by every checkout's benchmarks:
			// the run settles a copy of it.
			path := filepath.Join(b.TempDir(), "cairn.db")
			if err := copyStore(filepath.Join(st.dir, "cairn.db"), path); err != nil {
				b.Fatal(err)
			}
			db, err := sqlite.Open(ctx, path)
			if err != nil {
				b.Fatal(err)
			}
			settleStore(b, db)
			eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Readers: readers()})
			defer eng.Close()
			cwd := st.Checkouts[0].Dir // the busiest worktree
			for _, v := range []struct {
				name string
				rung memory.Rung
			}{{"worktree", memory.RungNone}, {"everywhere", memory.RungEverywhere}} {
				b.Run(v.name, func(b *testing.B) {
					runSearches(b, eng, st, queries, engine.SearchRequest{Cwd: cwd, Rung: v.rung, Limit: searchLimit})
				})
			}
		})
	}
}

// settleStore brings a copy of a cached store where background rounds
// keep a store in use: its full-text indexes merged, its planner
// statistics refreshed.
func settleStore(b *testing.B, db *sqlite.DB) {
	b.Helper()
	ctx := context.Background()
	t0 := time.Now()
	for {
		more, err := db.MergeIndexes(ctx, 64)
		if err != nil {
			b.Fatal(err)
		}
		if !more {
			break
		}
	}
	if err := db.RefreshPlannerStats(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("settled the store (indexes merged, planner statistics) in %s", time.Since(t0).Round(time.Millisecond))
}

// runSearches times each search and reports the percentiles.
func runSearches(b *testing.B, eng *engine.Engine, st searchStore, queries []corpus.Query, base engine.SearchRequest) {
	ctx := context.Background()
	// Locked to one thread, the thread's CPU time is the search's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	search := func(q corpus.Query) (engine.SearchResult, time.Duration) {
		req := base
		req.Query = q.Text
		c0 := threadCPU()
		t0 := time.Now()
		res, err := eng.Search(ctx, req)
		d := time.Since(t0)
		cpu = threadCPU() - c0
		if err != nil {
			b.Fatalf("search %q: %v", q.Text, err)
		}
		return res, d
	}
	// One untimed pass warms SQLite's page cache and checks that the
	// place matches the store: a moved cache directory would make every
	// placed search empty, and fast.
	// CAIRN_BENCH_DUMP=FILE writes each query's hits there, so two builds
	// meant to rank alike can be compared with cmp.
	var dump strings.Builder
	hits := 0
	for _, q := range queries {
		res, _ := search(q)
		hits += len(res.Hits)
		fmt.Fprintf(&dump, "%s %q\n", q.Kind, q.Text)
		for _, h := range res.Hits {
			fmt.Fprintf(&dump, "  %s %d %.12g\n", h.Layer, h.ID, h.Score)
		}
	}
	if p := os.Getenv("CAIRN_BENCH_DUMP"); p != "" {
		if err := os.WriteFile(p, []byte(dump.String()), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	if hits == 0 {
		b.Fatalf("no query found anything at %s; rebuild the store (delete %s)", base.Cwd, st.dir)
	}
	lat := make([]time.Duration, 0, b.N)
	var cpus []time.Duration
	byKind := map[string][]time.Duration{}
	type slow struct {
		q    corpus.Query
		d    time.Duration
		hits int
	}
	var slowest []slow
	for i := 0; b.Loop(); i++ {
		q := queries[i%len(queries)]
		res, d := search(q)
		lat = append(lat, d)
		cpus = append(cpus, cpu)
		byKind[q.Kind] = append(byKind[q.Kind], d)
		if i < len(queries) {
			slowest = append(slowest, slow{q, d, len(res.Hits)})
		}
	}
	b.ReportMetric(ms(percentile(lat, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(lat, 95)), "p95-ms")
	b.ReportMetric(ms(percentile(lat, 99)), "p99-ms")
	b.ReportMetric(ms(percentile(cpus, 50)), "cpu-p50-ms")
	b.ReportMetric(ms(percentile(cpus, 95)), "cpu-p95-ms")
	b.ReportMetric(float64(st.DBBytes)/1e6, "db-MB")
	if st.FTSBytes >= 0 {
		b.ReportMetric(float64(st.FTSBytes)/1e6, "fts-MB")
	}

	var sb strings.Builder
	fmt.Fprintf(&sb, "%d parts in %d sessions (%d at the searched worktree), %d searches\n", st.Parts, st.Sessions, st.PartsIn[0], len(lat))
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		d := byKind[k]
		fmt.Fprintf(&sb, "  %-8s n=%-4d p50 %6.2f ms  p95 %6.2f ms  max %6.2f ms\n", k, len(d), ms(percentile(d, 50)), ms(percentile(d, 95)), ms(percentile(d, 100)))
	}
	slices.SortFunc(slowest, func(a, b slow) int { return int(b.d - a.d) })
	for _, s := range slowest[:min(5, len(slowest))] {
		fmt.Fprintf(&sb, "  slow: %6.2f ms  %d hits  %s %.80q\n", ms(s.d), s.hits, s.q.Kind, s.q.Text)
	}
	b.Log(sb.String())
}

// percentile is the p-th percentile by the nearest-rank method.
func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// ensureSearchStore returns the cached store of n parts, building it
// first if needed: the checkouts are laid out (always, so their places
// resolve), a tree of n parts is generated, the real binary imports it
// into a fresh CAIRN_HOME, and the transcripts are deleted again.
func ensureSearchStore(b *testing.B, label string, n int) searchStore {
	b.Helper()
	cache, err := corpus.DefaultCacheDir()
	if err != nil {
		b.Fatal(err)
	}
	checkouts, err := corpus.MakeCheckouts(filepath.Join(cache, fmt.Sprintf("search-places-v%d", searchStoreVersion)), searchWorktrees, searchClones)
	if err != nil {
		b.Fatal(err)
	}
	name := fmt.Sprintf("search-store-%s-v%d", label, searchStoreVersion)
	adoptOlderSchema(cache, name)
	dir, err := corpus.EnsureBuilt(cache, name, func(tmp string) error {
		return buildSearchStore(b, tmp, n, checkouts)
	})
	if err != nil {
		b.Fatal(err)
	}
	removeOlderStores(cache, "search-store-"+label+"-", dir)
	var st searchStore
	readStoreJSON(b, filepath.Join(dir, "store.json"), &st)
	st.dir = dir
	b.Logf("store %s: %d parts, %d sessions, %d turns; %.0f MB of JSONL generated in %s, imported in %s; db %.1f MB, fts %.1f MB",
		dir, st.Parts, st.Sessions, st.Turns, float64(st.JSONLBytes)/1e6, st.Generate.Round(time.Second), st.Import.Round(time.Second),
		float64(st.DBBytes)/1e6, float64(st.FTSBytes)/1e6)
	return st
}

// removeOlderStores deletes the cached stores named prefix followed by a
// version, but keep: a store of an older version is never read again, and
// at 1M parts one holds 2 GB.
func removeOlderStores(cache, prefix, keep string) {
	old, _ := filepath.Glob(filepath.Join(cache, prefix+"v*"))
	for _, o := range old {
		if o != keep {
			os.RemoveAll(o)
		}
	}
}

// readStoreJSON reads a description kept beside a cached store.
func readStoreJSON(b *testing.B, path string, v any) {
	b.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		b.Fatalf("%s: %v", path, err)
	}
}

// adoptOlderSchema renames a cached store of the same version that was
// named after the schema it was built at (name-sN, as before stores were
// migrated forward), so that it is opened and migrated, not rebuilt.
func adoptOlderSchema(cache, name string) {
	final := filepath.Join(cache, name)
	if _, err := os.Stat(final); err == nil {
		return
	}
	old, _ := filepath.Glob(filepath.Join(cache, name+"-s*"))
	// The newest schema: s10 after s9.
	slices.SortFunc(old, func(a, b string) int { return cmp.Or(len(a)-len(b), strings.Compare(a, b)) })
	if len(old) > 0 {
		os.Rename(old[len(old)-1], final)
	}
}

func buildSearchStore(b *testing.B, dir string, n int, checkouts []corpus.Checkout) error {
	tree := filepath.Join(dir, "transcripts")
	t0 := time.Now()
	gst, err := corpus.GenerateParts(tree, corpus.PartsOptions{Parts: n, Seed: searchSeed, Checkouts: checkouts})
	if err != nil {
		return err
	}
	st := searchStore{Parts: gst.Parts, Sessions: gst.Sessions, Turns: gst.Turns, PartsIn: gst.PartsIn,
		Checkouts: checkouts, JSONLBytes: gst.Bytes, Generate: time.Since(t0)}
	b.Logf("generated %d parts in %d sessions (%.0f MB) in %s; importing", gst.Parts, gst.Sessions, float64(gst.Bytes)/1e6, st.Generate.Round(time.Millisecond))

	cmd := cairnCmd(b, dir, "import", "--json", "--claude-code="+filepath.Join(tree, "claude", "projects"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t1 := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("cairn import: %w\n%s", err, stderr.Bytes())
	}
	st.Import = time.Since(t1)
	var out cli.ImportOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return fmt.Errorf("cairn import --json: %w", err)
	}
	if t := out.Totals; t.Failed != 0 || t.Parts != n || t.Sessions != gst.Sessions {
		return fmt.Errorf("import stored %d parts of %d sessions (%d sources failed); generated %d parts of %d sessions",
			t.Parts, t.Sessions, t.Failed, n, gst.Sessions)
	}
	if err := os.RemoveAll(tree); err != nil {
		return err
	}
	if err := measureStore(filepath.Join(dir, "cairn.db"), &st); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "store.json"), append(raw, '\n'), 0o644)
}

// measureStore records the database's size, its full-text index's share
// (from dbstat, when the SQLite build has it) and the text it holds.
func measureStore(path string, st *searchStore) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	st.DBBytes = fi.Size()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	st.FTSBytes = -1
	var fts sql.NullInt64
	if err := db.QueryRow(`SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'parts_fts%'`).Scan(&fts); err == nil && fts.Valid {
		st.FTSBytes = fts.Int64
	}
	rows, err := db.Query(`SELECT role || '/' || kind, COUNT(*), SUM(length(CAST(text AS BLOB))) FROM parts GROUP BY 1`)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.TextBytes, st.TextParts = map[string]int64{}, map[string]int{}
	for rows.Next() {
		var k string
		var c int
		var s int64
		if err := rows.Scan(&k, &c, &s); err != nil {
			return err
		}
		st.TextParts[k], st.TextBytes[k] = c, s
	}
	return rows.Err()
}
