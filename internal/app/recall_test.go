package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// recallWorld is a store with a day of work in one repository, read with a
// fixed clock and time zone so blocks are reproducible.
type recallWorld struct {
	eng  *engine.Engine
	db   *sqlite.DB
	repo string
	now  *time.Time
}

func newRecallWorld(t *testing.T, mutate func(*config.Config)) *recallWorld {
	t.Helper()
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := config.Default()
	cfg.Recall.TimeZone = "UTC"
	if mutate != nil {
		mutate(&cfg)
	}
	w := &recallWorld{db: db, now: &now}
	db.Now = func() time.Time { return *w.now }
	w.eng = engine.New(db, engine.Options{Config: cfg, Resolve: gitdir.Resolve, Readers: readers(), Now: func() time.Time { return *w.now }})
	// A fixed directory name keeps paths out of the golden text.
	w.repo = filepath.Join(t.TempDir(), "shop")
	if err := os.MkdirAll(w.repo, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := w.eng.Remember(ctx, "Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`.", "git", memory.ClassConvention, true, w.repo); err != nil {
		t.Fatal(err)
	}
	if _, err := w.eng.Remember(ctx, "Keep answers to five lines or less, no tables.", "style", memory.ClassPreference, false, w.repo); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		subj, pred, obj string
		valid           time.Time
	}{
		{"user", "current_ticket", "PAY-1432", now.AddDate(0, 0, -4)},
		{"user", "current_ticket", "PAY-1501", now.AddDate(0, 0, -1)},
		{"project", "ci", "Buildkite", now.AddDate(0, 0, -10)},
	} {
		d := memory.Draft{Kind: memory.KindFact, Subject: f.subj, Predicate: f.pred, Object: f.obj, ValidAt: f.valid, Class: memory.ClassTask}
		if _, err := w.eng.Write(ctx, engine.Write{Draft: d, Writer: memory.WriterCLI, Cwd: w.repo}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "p", "day1.jsonl")
	writeLines(t, path, claudeLines("day1-session", w.repo, now.AddDate(0, 0, -2), []ccTurn{
		{User: "Add an .nvmrc file that pins Node 20 and commit it.", Answer: "Added .nvmrc pinning Node 20 and committed it.",
			ToolOutput: "[main 7e2964f] add .nvmrc to pin Node 20\n 1 file changed"},
		{User: "Now bump the retry limit of the http client to 5.", Answer: "Bumped the retry limit to 5 in client.go."},
	}))
	importClaude(t, w.eng, path)
	return w
}

func (w *recallWorld) recall(t *testing.T, q string, req engine.RecallRequest) engine.RecallResult {
	t.Helper()
	req.Query, req.Cwd = q, w.repo
	if req.Provider == "" {
		req.Provider = memory.ProviderClaudeCode
	}
	res, err := w.eng.Recall(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRecallBlocks(t *testing.T) {
	w := newRecallWorld(t, nil)
	ctx := context.Background()
	st, err := w.eng.Standing(ctx, engine.RecallRequest{Cwd: w.repo, Provider: memory.ProviderCodex, Session: "day2-codex", Start: true})
	if err != nil {
		t.Fatal(err)
	}
	goldenText(t, "standing_block", st.Block.Text)
	for _, want := range []string{"PAY-1432: short summary", "current_ticket = PAY-1501", "PAY-1432 → PAY-1501", "Rules you set"} {
		if !strings.Contains(st.Block.Text, want) {
			t.Errorf("standing block lacks %q", want)
		}
	}
	for _, l := range st.Block.Lines {
		if l.Section == 2 /* current facts */ && strings.Contains(l.Text, "PAY-1432") {
			t.Errorf("the old ticket is presented as current: %q", l.Text)
		}
	}
	again, _ := w.eng.Standing(ctx, engine.RecallRequest{Cwd: w.repo, Provider: memory.ProviderCodex, Session: "day2-other", Start: true})
	if again.Block.Text != st.Block.Text {
		t.Error("the standing block changed while memory did not")
	}

	earlier := w.recall(t, "where did we leave off with the nvmrc work yesterday?", engine.RecallRequest{})
	goldenText(t, "recall_earlier_work", earlier.Block.Text)
	if !strings.Contains(earlier.Block.Text, "Excerpts from earlier sessions") {
		t.Error("a request about earlier work got no excerpts")
	}
	unrelated := w.recall(t, "refactor the nvmrc loader into its own module", engine.RecallRequest{})
	if strings.Contains(unrelated.Block.Text, "Excerpts from earlier sessions") {
		t.Error("an ordinary request got raw excerpts")
	}
	if earlier.Receipt == nil || len(earlier.Receipt.Items) == 0 || earlier.Receipt.Tokens == 0 {
		t.Fatalf("receipt %+v", earlier.Receipt)
	}

	// The recall block leaves out what the session's standing block sent.
	withSession := w.recall(t, "which ticket am I on and what is the commit format?", engine.RecallRequest{Provider: memory.ProviderCodex, Session: "day2-codex"})
	if strings.Contains(withSession.Block.Text, "[n1]") {
		t.Errorf("the recall block repeats a rule the standing block sent:\n%s", withSession.Block.Text)
	}
}

func TestPinnedRuleSurvivesATightBudget(t *testing.T) {
	w := newRecallWorld(t, func(c *config.Config) { c.Recall.BudgetTokens = 25 })
	res := w.recall(t, "commit format and answer style and ticket and ci", engine.RecallRequest{})
	if !strings.Contains(res.Block.Text, "PAY-1432: short summary") {
		t.Fatalf("the pinned rule was dropped:\n%s", res.Block.Text)
	}
	if len(res.Block.Dropped) == 0 {
		t.Fatal("the budget dropped nothing: the test proves nothing")
	}
}

func TestPrivateSessionGetsNothingAndStoresNothing(t *testing.T) {
	w := newRecallWorld(t, nil)
	ctx := context.Background()
	res, err := w.eng.Standing(ctx, engine.RecallRequest{Cwd: w.repo, Provider: memory.ProviderClaudeCode, Session: "secret", Preset: "private", Start: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Block.Text != "" || res.Decision.Read {
		t.Fatalf("a private session got a block: %+v", res.Decision)
	}
	if r := w.recall(t, "commit format", engine.RecallRequest{Session: "secret"}); r.Block.Text != "" {
		t.Fatal("a private session got a recall block")
	}
	before, _ := w.eng.Sessions(ctx, 0)
	path := filepath.Join(t.TempDir(), "p", "secret.jsonl")
	writeLines(t, path, claudeLines("secret", w.repo, *w.now, []ccTurn{{User: "From now on always use yarn.", Answer: "OK."}}))
	importClaude(t, w.eng, path)
	after, _ := w.eng.Sessions(ctx, 0)
	if len(after) != len(before) {
		t.Fatal("the private session was stored")
	}
}

func TestGlobalRecallOffCannotBeReEnabled(t *testing.T) {
	w := newRecallWorld(t, nil)
	if err := w.eng.SetSetting(context.Background(), "memory.recall", "false"); err != nil {
		t.Fatal(err)
	}
	res := w.recall(t, "commit format", engine.RecallRequest{Session: "s", Preset: "memory-on"})
	if res.Block.Text != "" || res.Decision.Read || !strings.Contains(res.Decision.Reason, "recall is switched off") {
		t.Fatalf("a session re-enabled recall: %+v", res.Decision)
	}
}

func TestCitationsCountAndAreStripped(t *testing.T) {
	w := newRecallWorld(t, nil)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p", "cite.jsonl")
	writeLines(t, path, claudeLines("cite", w.repo, *w.now, []ccTurn{{User: "what is the commit format?",
		Answer: "Start with the ticket key, e.g. PAY-1501: fix.\n<cairn-cite>n1, f2</cairn-cite>"}}))
	importClaude(t, w.eng, path)
	n, err := w.db.Statement(ctx, memory.LocalAccount, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n.UsageCount != 1 || n.LastUsedAt.IsZero() {
		t.Fatalf("citation not counted: %+v", n)
	}
	s, err := w.eng.Session(ctx, "cite")
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range s.Turns {
		if strings.Contains(tr.Outcome, "cairn-cite") {
			t.Fatal("the citation tag was stored")
		}
		for _, p := range tr.Parts {
			if strings.Contains(p.Text, "cairn-cite") {
				t.Fatal("the citation tag was stored in a part")
			}
		}
	}
}

func goldenText(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Fatalf("%s differs from %s:\n%s", name, path, got)
	}
}

// A place with a long session-state history shows the three rows that
// stopped being true most recently, newest first, and no older one: here
// the last ticket (shown once, as a recent change) and two steps, past a
// run of newer rows that are never shown.
func TestStandingBlockShowsTheNewestHistory(t *testing.T) {
	w := newRecallWorld(t, nil)
	ctx := context.Background()
	start := *w.now
	for i := range 9 {
		at := start.AddDate(0, 0, -90+7*i)
		*w.now = at.Add(time.Hour)
		d := memory.Draft{Kind: memory.KindFact, Subject: "user", Predicate: "next_step", Object: fmt.Sprintf("step-%d", i), ValidAt: at, Class: memory.ClassTask}
		if _, err := w.eng.Write(ctx, engine.Write{Draft: d, Writer: memory.WriterCLI, Cwd: w.repo}); err != nil {
			t.Fatal(err)
		}
	}
	// Newer still, a run of an agent's values that claim no tier: stored,
	// never shown, and more of them than the store is first asked for.
	for i := range 10 {
		at := start.AddDate(0, 0, -30+i)
		*w.now = at.Add(time.Hour)
		d := memory.Draft{Kind: memory.KindFact, Subject: "agent", Predicate: "focus", Object: fmt.Sprintf("focus-%d", i), ValidAt: at, Class: memory.ClassTask}
		if _, err := w.eng.Write(ctx, engine.Write{Draft: d, Writer: memory.WriterAgent, Cwd: w.repo}); err != nil {
			t.Fatal(err)
		}
	}
	*w.now = start
	st, err := w.eng.Standing(ctx, engine.RecallRequest{Cwd: w.repo, Provider: memory.ProviderClaudeCode, Session: "later", Start: true})
	if err != nil {
		t.Fatal(err)
	}
	var history []string
	for _, l := range strings.Split(st.Block.Text, "\n") {
		if strings.Contains(l, "next_step") && strings.Contains(l, "INVALID") {
			history = append(history, l)
		}
	}
	want := []string{"step-7", "step-6"}
	if len(history) != len(want) {
		t.Fatalf("history lines %q, want %v:\n%s", history, want, st.Block.Text)
	}
	for i, l := range history {
		if !strings.Contains(l, want[i]) {
			t.Errorf("history line %d is %q, want %s", i, l, want[i])
		}
	}
	if strings.Contains(st.Block.Text, "focus") {
		t.Errorf("an untiered row is shown:\n%s", st.Block.Text)
	}
	if !strings.Contains(st.Block.Text, "next_step = step-8") || !strings.Contains(st.Block.Text, "PAY-1432 → PAY-1501") {
		t.Errorf("the current step or the ticket's change is missing:\n%s", st.Block.Text)
	}
}

// TestRecallFirstRecallsOncePerSession: RecallFirst, which the hooks use
// by default, gives a session's first request a block that leaves out what
// its standing block sent, as Recall does, and gives later requests none.
func TestRecallFirstRecallsOncePerSession(t *testing.T) {
	w := newRecallWorld(t, nil)
	ctx := context.Background()
	q := "which ticket am I on and what is the commit format?"
	if _, err := w.eng.Standing(ctx, engine.RecallRequest{Cwd: w.repo, Provider: memory.ProviderCodex, Session: "s1", Start: true}); err != nil {
		t.Fatal(err)
	}
	want := w.recall(t, q, engine.RecallRequest{Provider: memory.ProviderCodex, Session: "s2"})
	first, already, err := w.eng.RecallFirst(ctx, engine.RecallRequest{Query: q, Cwd: w.repo, Provider: memory.ProviderCodex, Session: "s1"})
	if err != nil || already {
		t.Fatalf("first request: already %v, %v", already, err)
	}
	if first.Block.Text == "" || strings.Contains(first.Block.Text, "[n1]") {
		t.Fatalf("the first block is empty or repeats a rule the standing block sent:\n%s", first.Block.Text)
	}
	if want.Block.Text == first.Block.Text {
		t.Fatal("a session with no standing block got the same block: the sent lines were not left out")
	}
	again, already, err := w.eng.RecallFirst(ctx, engine.RecallRequest{Query: "and the CI?", Cwd: w.repo, Provider: memory.ProviderCodex, Session: "s1"})
	if err != nil || !already || again.Block.Text != "" || again.Receipt != nil {
		t.Fatalf("second request of the session: already %v, block %q, %v", already, again.Block.Text, err)
	}
	// A session with no id cannot be told apart: it recalls every time.
	if _, already, err := w.eng.RecallFirst(ctx, engine.RecallRequest{Query: q, Cwd: w.repo, Provider: memory.ProviderCodex}); err != nil || already {
		t.Fatalf("no session: already %v, %v", already, err)
	}
}

// TestRecallLaterSavesAfterTheBlock: with Later set (the resident process)
// a block's receipt is written when the caller runs the save it was handed,
// after answering, and the session's next read of its receipts waits for
// that write instead of missing it.
func TestRecallLaterSavesAfterTheBlock(t *testing.T) {
	w := newRecallWorld(t, nil)
	ctx := context.Background()
	var saves []func() error
	later := func(save func() error) { saves = append(saves, save) }
	st, err := w.eng.Standing(ctx, engine.RecallRequest{Cwd: w.repo, Provider: memory.ProviderCodex, Session: "s1", Start: true, Later: later})
	if err != nil || st.Block.Text == "" || len(saves) != 1 || st.Receipt == nil || st.Receipt.ID != 0 {
		t.Fatalf("standing block with Later: %d saves handed over, receipt %+v, %v", len(saves), st.Receipt, err)
	}
	// Not written yet: a read of the session's receipts waits for it.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = w.eng.Receipts(short, memory.ProviderCodex, "s1", 10)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a read of the receipts while one was owed: %v", err)
	}
	type first struct {
		res     engine.RecallResult
		already bool
		err     error
	}
	got := make(chan first, 1)
	go func() {
		res, already, err := w.eng.RecallFirst(ctx, engine.RecallRequest{Query: "which ticket am I on and what is the commit format?",
			Cwd: w.repo, Provider: memory.ProviderCodex, Session: "s1", Later: later})
		got <- first{res, already, err}
	}()
	select {
	case f := <-got:
		t.Fatalf("the first request did not wait for the standing block's receipt: %+v", f)
	case <-time.After(50 * time.Millisecond):
	}
	if err := saves[0](); err != nil {
		t.Fatal(err)
	}
	f := <-got
	if f.err != nil || f.already || f.res.Block.Text == "" || strings.Contains(f.res.Block.Text, "[n1]") {
		t.Fatalf("first request after the standing receipt landed: already %v, %v, block:\n%s", f.already, f.err, f.res.Block.Text)
	}
	if len(saves) != 2 {
		t.Fatalf("%d saves handed over, want the request block's too", len(saves))
	}
	if err := saves[1](); err != nil {
		t.Fatal(err)
	}
	rs, err := w.eng.Receipts(ctx, memory.ProviderCodex, "s1", 10)
	if err != nil || len(rs) != 2 {
		t.Fatalf("after both saves: %d receipts, %v", len(rs), err)
	}
	if _, already, err := w.eng.RecallFirst(ctx, engine.RecallRequest{Query: "and the CI?", Cwd: w.repo, Provider: memory.ProviderCodex, Session: "s1", Later: later}); err != nil || !already {
		t.Fatalf("second request: already %v, %v", already, err)
	}
}
