package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// vaultBenchNow is the clock of the vault benchmarks: a day after the
// generated sessions, so every one of them is idle and young enough.
var vaultBenchNow = time.Date(2026, 5, 12, 12, 0, 0, 0, time.UTC)

// vaultBenchSessions writes n Claude Code sessions over 20 projects, each
// with a rule or decision from the user, a test run (failing first in
// some), and an answer: material for recaps, MEMORY.md families and
// skills.
func vaultBenchSessions(tb testing.TB, dir string, n int) {
	tb.Helper()
	tools := []string{"pnpm", "make", "go", "cargo", "poetry", "gradle", "bun", "just"}
	rules := []string{
		"Always run %s lint before you push in project %d.",
		"We decided to deploy project %[2]d with %[1]s on Fridays only.",
		"From now on, commits in project %[2]d start with the ticket key, and %[1]s builds must pass.",
		"Never edit generated files in project %[2]d; regenerate them with %[1]s.",
	}
	start := vaultBenchNow.Add(-9 * 24 * time.Hour)
	for i := range n {
		proj, tool := i%20, tools[i%len(tools)]
		repo := fmt.Sprintf("/work/bench/proj%02d", proj)
		out := fmt.Sprintf("ok  \tgithub.com/acme/proj%02d/pkg%d\t0.%03ds\n", proj, i%7, i%1000)
		turns := []ccTurn{
			{User: fmt.Sprintf(rules[i%len(rules)], tool, proj), Answer: "Understood; I will follow that."},
			{User: fmt.Sprintf("Please fix the failing test in pkg%d of project %d (ticket PAY-%d).", i%7, proj, 1000+i),
				Answer: fmt.Sprintf("Fixed the off-by-one in pkg%d; %s test passes now.", i%7, tool), ToolOutput: out},
			{User: "Thanks, that's all for now.", Answer: "Bye."},
		}
		id := fmt.Sprintf("%08d-0000-4000-8000-00000000beef", i)
		at := start.Add(time.Duration(i) * 7 * time.Minute)
		writeLines(tb, filepath.Join(dir, fmt.Sprintf("-work-bench-proj%02d", proj), id+".jsonl"), claudeLines(id, repo, at, turns))
	}
}

var vaultBenchStores sync.Map // n → template store path, built once per process

// vaultBenchStore imports n sessions once per process and returns the
// template store; each run works on a copy.
func vaultBenchStore(b *testing.B, n int) string {
	b.Helper()
	if p, ok := vaultBenchStores.Load(n); ok {
		return p.(string)
	}
	dir, err := os.MkdirTemp("", "cairn-vault-bench-")
	if err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(dir, "projects")
	vaultBenchSessions(b, src, n)
	path := filepath.Join(dir, "cairn.db")
	eng, _ := benchEngine(b, path, dir, 0)
	if _, err := eng.Import(context.Background(), engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{src}}); err != nil {
		b.Fatal(err)
	}
	if _, err := eng.Maintain(context.Background()); err != nil {
		b.Fatal(err)
	}
	eng.Close()
	vaultBenchStores.Store(n, path)
	return path
}

// benchEngine opens a store at the benchmarks' clock with its vault under
// dataDir; maxExtractions caps publishing (0: the default).
func benchEngine(b testing.TB, path, dataDir string, maxExtractions int) (*engine.Engine, *sqlite.DB) {
	b.Helper()
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	now := func() time.Time { return vaultBenchNow }
	db.Now = now
	cfg := config.Default()
	if maxExtractions > 0 {
		cfg.Phase2.MaxExtractions = maxExtractions
	}
	return engine.New(db, engine.Options{Config: cfg, Resolve: gitdir.Resolve, Readers: readers(), Now: now, Vaults: vaultOpener(dataDir)}), db
}

// BenchmarkPhase1 extracts 1,000 idle sessions (phase 1, deterministic
// extractor, parallel cap 4) on a fresh copy of the store each run.
func BenchmarkPhase1(b *testing.B) {
	const n = 1000
	tmpl := vaultBenchStore(b, n)
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		path := filepath.Join(dir, "cairn.db")
		if err := copyStore(tmpl, path); err != nil {
			b.Fatal(err)
		}
		eng, _ := benchEngine(b, path, dir, 0)
		b.StartTimer()
		rep, err := eng.ExtractDue(context.Background())
		b.StopTimer()
		if err != nil || rep.Extracted+rep.Empty != n {
			b.Fatalf("phase 1: %+v %v", rep, err)
		}
		b.ReportMetric(float64(n)/rep.Took.Seconds(), "sessions/s")
		eng.Close()
		b.StartTimer()
	}
}

// BenchmarkConsolidate300 runs phase 2 over 300 selected extractions (of
// 1,000): the first pass on an empty vault (init: publish 300 recaps,
// MEMORY.md, skills, summary, baseline), then an incremental pass after a
// hand edit, each timed alone.
func BenchmarkConsolidate300(b *testing.B) {
	tmpl := vaultBenchStore(b, 1000)
	dir := b.TempDir()
	path := filepath.Join(dir, "cairn.db")
	if err := copyStore(tmpl, path); err != nil {
		b.Fatal(err)
	}
	eng, _ := benchEngine(b, path, dir, 300)
	if rep, err := eng.ExtractDue(context.Background()); err != nil || rep.Extracted == 0 {
		b.Fatalf("phase 1: %+v %v", rep, err)
	}
	eng.Close()
	var initTook, incrTook time.Duration
	runs := 0
	for b.Loop() {
		b.StopTimer()
		run := b.TempDir()
		p := filepath.Join(run, "cairn.db")
		if err := copyStore(path, p); err != nil {
			b.Fatal(err)
		}
		eng, _ := benchEngine(b, p, run, 300)
		b.StartTimer()
		reps, err := eng.Consolidate(context.Background(), true)
		b.StopTimer()
		if err != nil || len(reps) != 1 || reps[0].Published != 300 {
			b.Fatalf("init pass: %+v %v", reps, err)
		}
		initTook += reps[0].Took
		memPath := filepath.Join(run, "vault", "MEMORY.md")
		mem, err := os.ReadFile(memPath)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(memPath, append(mem, "\n- Keep pull requests under 400 lines.\n"...), 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		reps, err = eng.Consolidate(context.Background(), true)
		b.StopTimer()
		if err != nil || reps[0].NewNotes != 1 {
			b.Fatalf("incremental pass: %+v %v", reps, err)
		}
		incrTook += reps[0].Took
		runs++
		eng.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(initTook.Milliseconds())/float64(runs), "init-ms/pass")
	b.ReportMetric(float64(incrTook.Milliseconds())/float64(runs), "incremental-ms/pass")
}
