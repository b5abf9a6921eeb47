package app

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
	"github.com/cairn-memory/cairn/internal/vault"
)

// testClock is a clock tests move by hand, safe to read from the
// engine's goroutines.
type testClock struct{ ns atomic.Int64 }

func newTestClock(t time.Time) *testClock {
	c := &testClock{}
	c.set(t)
	return c
}
func (c *testClock) set(t time.Time)     { c.ns.Store(t.UnixNano()) }
func (c *testClock) add(d time.Duration) { c.ns.Add(int64(d)) }
func (c *testClock) now() time.Time      { return time.Unix(0, c.ns.Load()).UTC() }

// vaultWorld is one data dir with a store, its vaults and an engine
// owned by one "process".
type vaultWorld struct {
	dataDir string
	clock   *testClock
	home    string // a HOME with other agents' memory folders
}

// engine opens the store afresh, as another process would, and builds an
// engine whose vaults may be wrapped.
func (w *vaultWorld) engine(t *testing.T, owner string, wrap func(engine.VaultFiles) engine.VaultFiles) (*engine.Engine, *sqlite.DB) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(w.dataDir, "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Now = w.clock.now
	open := vaultOpener(w.dataDir)
	if wrap != nil {
		inner := open
		open = func(v string) (engine.VaultFiles, error) {
			f, err := inner(v)
			if err != nil {
				return nil, err
			}
			return wrap(f), nil
		}
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return w.home
		}
		return ""
	}
	eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Readers: readers(),
		Now: w.clock.now, Owner: owner, Vaults: open, Extensions: extensionSources(getenv)})
	t.Cleanup(func() { eng.Close() })
	return eng, db
}

func (w *vaultWorld) read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dataDir, vault.V1Dir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (w *vaultWorld) write(t *testing.T, p, s string) {
	t.Helper()
	full := filepath.Join(w.dataDir, vault.V1Dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (w *vaultWorld) exists(p string) bool {
	_, err := os.Stat(filepath.Join(w.dataDir, vault.V1Dir, filepath.FromSlash(p)))
	return err == nil
}

func (w *vaultWorld) baselines(t *testing.T) int {
	t.Helper()
	v, err := vault.OpenRoot(w.dataDir, "v1")
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	log, err := v.Log(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(log)
}

func consolidate(t *testing.T, eng *engine.Engine) engine.Phase2Report {
	t.Helper()
	reps, err := eng.Consolidate(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || !reps[0].Ran {
		t.Fatalf("consolidation did not run: %+v", reps)
	}
	return reps[0]
}

var anchorID = regexp.MustCompile(`<!-- s:(\d+)`)

// anchoredLine finds the MEMORY.md line saying sub and its statement id.
func anchoredLine(t *testing.T, page, sub string) (string, int64) {
	t.Helper()
	for l := range strings.Lines(page) {
		if strings.Contains(l, sub) {
			if m := anchorID.FindStringSubmatch(l); m != nil {
				id, _ := strconv.ParseInt(m[1], 10, 64)
				return strings.TrimRight(l, "\n"), id
			}
		}
	}
	t.Fatalf("no anchored line says %q in:\n%s", sub, page)
	return "", 0
}

// TestVaultPipeline follows issue 10's end-to-end test on sessions
// imported through the real Claude Code reader with an injected clock:
// the eligibility windows, the consolidation lease raced by two
// processes, hand edits and deletions, a wrong summary version, and one
// baseline per pass.
func TestVaultPipeline(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()}
	eng, _ := w.engine(t, "proc-a", nil)

	repo := t.TempDir()
	proj := filepath.Join(t.TempDir(), "projects", "repo")
	sessions := map[string]struct {
		ago   time.Duration
		turns []ccTurn
	}{
		"too-old": {11 * 24 * time.Hour, []ccTurn{{User: "From now on, always tag releases with a v prefix.", Answer: "Will do."}}},
		"idle": {7 * time.Hour, []ccTurn{
			{User: "Our commits start with the Jira key of the ticket, like `PAY-1432: short summary`.", Answer: "Understood."},
			{User: "We decided to use pnpm, never npm.", Answer: "Noted, pnpm it is."},
			{User: "Please run the tests.", Answer: "All tests pass.", ToolOutput: "ok  \tgithub.com/acme/pay\t0.41s\n"},
		}},
		"fresh": {1 * time.Hour, []ccTurn{{User: "Always run make lint before you push.", Answer: "Sure, I will run make lint first."}}},
	}
	for name, s := range sessions {
		writeLines(t, filepath.Join(proj, name+".jsonl"), claudeLines(name, repo, t0.Add(-s.ago), s.turns))
	}
	if reps, err := eng.Import(ctx, engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{proj}}); err != nil || len(reps) != 3 {
		t.Fatalf("import: %v %+v", err, reps)
	}
	if _, err := eng.Maintain(ctx); err != nil {
		t.Fatal(err)
	}

	// Phase 1: only the session idle for 6 h and younger than 10 days.
	rep, err := eng.ExtractDue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Eligible != 1 || rep.Extracted+rep.Empty != 1 {
		t.Fatalf("at t0 exactly the idle session is eligible: %+v", rep)
	}
	if rep, _ = eng.ExtractDue(ctx); rep.Eligible != 0 {
		t.Fatalf("a finished session was taken again: %+v", rep)
	}
	w.clock.add(5*time.Hour + 30*time.Minute) // "fresh" is now 6.5 h idle
	if rep, err = eng.ExtractDue(ctx); err != nil || rep.Eligible != 1 {
		t.Fatalf("after 5.5 h the fresh session is due: %+v %v", rep, err)
	}
	w.clock.add(11 * 24 * time.Hour)
	if rep, _ = eng.ExtractDue(ctx); rep.Eligible != 0 {
		t.Fatalf("nothing is due once every session is older than 10 days: %+v", rep)
	}
	w.clock.set(t0.Add(6 * time.Hour))

	// Pass 1: init mode; recaps and raw memories published, then MEMORY.md,
	// the summary, and a baseline.
	p1 := consolidate(t, eng)
	if p1.Mode != distill.ModeInit || p1.Published != 2 {
		t.Fatalf("first pass: %+v", p1)
	}
	mem := w.read(t, distill.MemoryPath)
	sum := w.read(t, distill.SummaryPath)
	if !distill.SummaryValid(sum) || !strings.Contains(w.read(t, distill.RawMemoriesPath), "## ") {
		t.Fatalf("summary or raw memories missing:\n%s", sum)
	}
	if w.baselines(t) != 1 {
		t.Fatalf("one pass, %d baselines", w.baselines(t))
	}
	// The summary reaches the standing block's slot without its format
	// line.
	res, err := eng.Standing(ctx, engine.RecallRequest{Cwd: repo, Provider: memory.ProviderClaudeCode, Session: "s-next"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Block.Text, distill.SummaryMarker) || !strings.Contains(res.Block.Text, "Memory summary") {
		t.Errorf("the standing block does not carry the summary (without its format line):\n%s", res.Block.Text)
	}

	// A pass with nothing new changes nothing and makes no commit.
	if p := consolidate(t, eng); !p.NoOp || w.baselines(t) != 1 {
		t.Fatalf("an idle pass was not a no-op: %+v, %d baselines", p, w.baselines(t))
	}

	// Hand edits: a removed line retracts its statement for good; an
	// added line becomes a vault note with its own file and anchor.
	pnpmLine, pnpmID := anchoredLine(t, mem, "pnpm")
	added := "- Squash-merge every pull request."
	edited := strings.Replace(mem, pnpmLine+"\n", "", 1)
	edited = strings.Replace(edited, "\n## ", "\n"+added+"\n\n## ", 1)
	w.write(t, distill.MemoryPath, edited)
	p3 := consolidate(t, eng)
	if p3.Retracted != 1 || p3.NewNotes != 1 {
		t.Fatalf("hand edits not applied: %+v", p3)
	}
	st, err := eng.Statement(ctx, pnpmID)
	if err != nil || st.Reason != memory.ReasonRetracted {
		t.Fatalf("statement %d after its line was removed: %+v %v", pnpmID, st, err)
	}
	mem = w.read(t, distill.MemoryPath)
	if strings.Contains(mem, "s:"+strconv.FormatInt(pnpmID, 10)+" ") || strings.Contains(mem, "never npm") {
		t.Fatalf("a removed line came back:\n%s", mem)
	}
	_, squashID := anchoredLine(t, mem, "Squash-merge every pull request")
	note, err := eng.Statement(ctx, squashID)
	if err != nil || note.Writer != memory.WriterVault || note.Kind != memory.KindNote {
		t.Fatalf("the added line is not a vault note: %+v %v", note, err)
	}
	if !w.exists(engine.NotePath(squashID)) {
		t.Fatalf("the new note has no file %s", engine.NotePath(squashID))
	}
	if w.baselines(t) != 2 {
		t.Fatalf("three passes, one of them a no-op: %d baselines", w.baselines(t))
	}
	if p := consolidate(t, eng); p.Retracted+p.NewNotes+p.Superseded != 0 || strings.Contains(w.read(t, distill.MemoryPath), "never npm") {
		t.Fatalf("the pass after the edits found edits again or resurrected a line: %+v", p)
	}

	// Editing a note's file supersedes the note; deleting it retracts.
	w.write(t, engine.NotePath(squashID), strings.Replace(w.read(t, engine.NotePath(squashID)), "Squash-merge every pull request.", "Rebase-merge every pull request.", 1))
	if p := consolidate(t, eng); p.Superseded != 1 {
		t.Fatalf("an edited note file did not supersede its note: %+v", p)
	}
	old, _ := eng.Statement(ctx, squashID)
	if old.Reason != memory.ReasonSuperseded || old.ReplacedBy == 0 {
		t.Fatalf("the edited note was not superseded: %+v", old)
	}
	repl, _ := eng.Statement(ctx, old.ReplacedBy)
	if !strings.Contains(repl.Object, "Rebase-merge") || !repl.Current() || !w.exists(engine.NotePath(repl.ID)) || w.exists(engine.NotePath(squashID)) {
		t.Fatalf("replacement %+v, its file %v, old file %v", repl, w.exists(engine.NotePath(repl.ID)), w.exists(engine.NotePath(squashID)))
	}
	if err := os.Remove(filepath.Join(w.dataDir, vault.V1Dir, engine.NotePath(repl.ID))); err != nil {
		t.Fatal(err)
	}
	if p := consolidate(t, eng); p.Retracted != 1 {
		t.Fatalf("a deleted note file did not retract its note: %+v", p)
	}
	if s, _ := eng.Statement(ctx, repl.ID); s.Current() || strings.Contains(w.read(t, distill.MemoryPath), "Rebase-merge") {
		t.Fatalf("a deleted note survived: %+v", s)
	}

	// A deleted recap propagates: the recap stays gone, and what rested
	// only on it leaves MEMORY.md.
	recaps, _ := filepath.Glob(filepath.Join(w.dataDir, vault.V1Dir, "rollout_summaries", "*.md"))
	var lintRecap string
	for _, r := range recaps {
		if b, _ := os.ReadFile(r); strings.Contains(string(b), "make lint") {
			lintRecap = r
		}
	}
	if lintRecap == "" {
		t.Fatalf("no recap of the fresh session among %v", recaps)
	}
	before := w.read(t, distill.MemoryPath)
	if err := os.Remove(lintRecap); err != nil {
		t.Fatal(err)
	}
	p := consolidate(t, eng)
	if p.Dropped == 0 {
		t.Fatalf("the deleted recap was not dropped: %+v", p)
	}
	if _, err := os.Stat(lintRecap); err == nil {
		t.Fatal("the deleted recap was published again")
	}
	after := w.read(t, distill.MemoryPath)
	if after == before {
		t.Fatal("deleting a recap changed nothing in MEMORY.md")
	}
	if strings.Contains(w.read(t, distill.RawMemoriesPath), filepath.Base(strings.TrimSuffix(lintRecap, ".md"))+" (") {
		t.Fatal("raw_memories.md still lists the deleted recap")
	}
	consolidate(t, eng)
	if _, err := os.Stat(lintRecap); err == nil {
		t.Fatal("the deleted recap came back on a later pass")
	}

	// A summary with a wrong version line is rebuilt wholesale.
	w.write(t, distill.SummaryPath, "<!-- cairn memory summary v0 -->\n# Old\n- stale line\n")
	consolidate(t, eng)
	if s := w.read(t, distill.SummaryPath); !distill.SummaryValid(s) || strings.Contains(s, "stale line") {
		t.Fatalf("the wrong-version summary was not regenerated:\n%s", s)
	}

	// Two processes race for the lease: the one that takes it holds it
	// through its pass; the other reports it busy and does nothing.
	n := w.baselines(t)
	w.write(t, distill.MemoryPath, w.read(t, distill.MemoryPath)+"\n- Keep PRs under 400 lines.\n")
	inPass, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	engA, _ := w.engine(t, "proc-a2", func(f engine.VaultFiles) engine.VaultFiles {
		return gatedVault{VaultFiles: f, at: func() { once.Do(func() { close(inPass); <-release }) }}
	})
	engB, _ := w.engine(t, "proc-b", nil)
	var repA []engine.Phase2Report
	var errA error
	done := make(chan struct{})
	go func() { repA, errA = engA.Consolidate(ctx, true); close(done) }()
	<-inPass
	repB, errB := engB.Consolidate(ctx, true)
	close(release)
	<-done
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if !repA[0].Ran || repB[0].Ran || !strings.Contains(repB[0].Why, "another cairn process") {
		t.Fatalf("lease race: A %+v, B %+v", repA, repB)
	}
	if got := w.baselines(t); got != n+1 {
		t.Fatalf("the raced pass made %d baselines", got-n)
	}

	// Citations and reads of a recap count as uses, which rank it.
	_, db := w.engine(t, "proc-c", nil)
	xs, err := db.Extractions(ctx, memory.LocalAccount, "v1")
	if err != nil || len(xs) == 0 {
		t.Fatal(err)
	}
	slug := xs[0].Slug
	cite := "Done, as before. <cairn-cite>v:" + distill.RecapPath(slug) + "#L1-L3, n1</cairn-cite>"
	writeLines(t, filepath.Join(proj, "cites.jsonl"), claudeLines("cites", repo, w.clock.now(), []ccTurn{{User: "Do it like last time.", Answer: cite}}))
	importClaude(t, eng, filepath.Join(proj, "cites.jsonl"))
	if _, err := eng.VaultRead(ctx, distill.RecapPath(slug)); err != nil {
		t.Fatal(err)
	}
	xs, _ = db.Extractions(ctx, memory.LocalAccount, "v1")
	for _, x := range xs {
		if x.Slug == slug && x.UsageCount != 2 {
			t.Fatalf("a cited and read recap counts %d uses, want 2", x.UsageCount)
		}
	}
}

// gatedVault calls at when a pass makes its baseline, so a test can act
// while the pass holds the lease.
type gatedVault struct {
	engine.VaultFiles
	at func()
}

func (g gatedVault) Baseline(ctx context.Context, msg string) (string, error) {
	g.at()
	return g.VaultFiles.Baseline(ctx, msg)
}

// TestVaultDualWrite runs both pipelines: each version has its own folder,
// jobs and history, and V2 keeps only recaps and its summary.
func TestVaultDualWrite(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()}
	eng, _ := w.engine(t, "proc-a", nil)
	if err := eng.SetSetting(ctx, "memory.version", "dual"); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	proj := filepath.Join(t.TempDir(), "projects", "repo")
	writeLines(t, filepath.Join(proj, "s1.jsonl"), claudeLines("s1", repo, t0.Add(-8*time.Hour), []ccTurn{
		{User: "We decided to use pnpm, never npm.", Answer: "Noted."},
		{User: "Please run the tests.", Answer: "All tests pass.", ToolOutput: "ok  \tgithub.com/acme/pay\t0.41s\n"},
	}))
	importClaude(t, eng, filepath.Join(proj, "s1.jsonl"))
	if _, err := eng.Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := eng.ExtractDue(ctx)
	if err != nil || rep.Eligible != 2 {
		t.Fatalf("dual write extracts the session once per version: %+v %v", rep, err)
	}
	reps, err := eng.Consolidate(ctx, true)
	if err != nil || len(reps) != 2 || !reps[0].Ran || !reps[1].Ran {
		t.Fatalf("dual consolidation: %+v %v", reps, err)
	}
	v2 := filepath.Join(w.dataDir, vault.V2Dir)
	sum, err := os.ReadFile(filepath.Join(v2, distill.SummaryPath))
	if err != nil || !distill.SummaryValid(string(sum)) {
		t.Fatalf("v2 summary: %v\n%s", err, sum)
	}
	for _, h := range []string{"User Profile", "User preferences", "General Tips", "What's in Memory"} {
		if !strings.Contains(string(sum), h) {
			t.Errorf("v2 summary lacks %q:\n%s", h, sum)
		}
	}
	if len(sum) >= 10000 {
		t.Errorf("v2 summary is %d bytes", len(sum))
	}
	if _, err := os.Stat(filepath.Join(v2, distill.MemoryPath)); err == nil {
		t.Error("v2 keeps a MEMORY.md")
	}
	if recaps, _ := filepath.Glob(filepath.Join(v2, "rollout_summaries", "*.md")); len(recaps) != 1 {
		t.Errorf("v2 recaps: %v", recaps)
	}
	if !w.exists(distill.MemoryPath) {
		t.Error("v1 has no MEMORY.md")
	}
	// Switching to v2 alone leaves v1's files as they are.
	before := w.read(t, distill.MemoryPath)
	if err := eng.SetSetting(ctx, "memory.version", "v2"); err != nil {
		t.Fatal(err)
	}
	if reps, err := eng.Consolidate(ctx, true); err != nil || len(reps) != 1 || reps[0].Version != "v2" {
		t.Fatalf("v2 only: %+v %v", reps, err)
	}
	if w.read(t, distill.MemoryPath) != before {
		t.Error("a v2 pass rewrote v1's files")
	}
}
