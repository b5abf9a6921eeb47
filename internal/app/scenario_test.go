package app

import (
	"context"
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

// clockEngine opens a store with a clock the test moves.
func clockEngine(t *testing.T, path string, now *time.Time) (*engine.Engine, *sqlite.DB) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Readers: readers(), Now: func() time.Time { return *now }})
	return eng, db
}

func notesOf(t *testing.T, eng *engine.Engine) []memory.Statement {
	t.Helper()
	v, err := eng.Notes(context.Background(), false, false)
	if err != nil {
		t.Fatal(err)
	}
	return v.Notes
}

func currentTicket(t *testing.T, eng *engine.Engine, cwd string) []memory.Statement {
	t.Helper()
	v, err := eng.Facts(context.Background(), engine.FactQuery{Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	var out []memory.Statement
	for _, s := range v.Current {
		if s.Predicate == "current_ticket" {
			out = append(out, s)
		}
	}
	return out
}

func importClaude(t *testing.T, eng *engine.Engine, path string) {
	t.Helper()
	reps, err := eng.Import(context.Background(), engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{path}})
	if err != nil || len(reps) != 1 || reps[0].Error != "" {
		t.Fatalf("import: %v %+v", err, reps)
	}
}

// TestCaptureScenario follows issue 6's scenario through the real import
// path with an injected clock.
func TestCaptureScenario(t *testing.T) {
	repo := t.TempDir()
	day1 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	now := day1
	eng, _ := clockEngine(t, filepath.Join(t.TempDir(), "cairn.db"), &now)
	dir := filepath.Join(t.TempDir(), "proj")
	session := filepath.Join(dir, "day1.jsonl")
	turns := []ccTurn{
		{User: "Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`. I'm on PAY-1432 this week.",
			Answer: "Understood. We could also use lru-cache for the router cache, it's a popular choice."},
		{User: "我们决定统一用 pnpm，不要用 npm。", Answer: "好的。"},
		{User: "<cairn-memory>\nRules you set:\n- Always deploy on Fridays.\n</cairn-memory>\nthanks, that's all for now",
			Answer: "Bye."},
	}
	writeLines(t, session, claudeLines("day1", repo, day1, turns[:1]))
	importClaude(t, eng, session)

	// Inside the settling window nothing is promoted.
	now = day1.Add(20 * time.Minute)
	if _, err := eng.Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := notesOf(t, eng); len(n) != 0 {
		t.Fatalf("promoted inside the window: %v", n)
	}
	// A later turn of the same session resets the window.
	turns[1].At = day1.Add(25 * time.Minute)
	turns[2].At = day1.Add(26 * time.Minute)
	writeLines(t, session, claudeLines("day1", repo, day1, turns))
	now = day1.Add(25 * time.Minute)
	importClaude(t, eng, session)
	now = day1.Add(40 * time.Minute) // 40 min after turn 1, under 30 after the last turn
	if due, err := eng.MaintenanceDue(context.Background()); err != nil || due {
		t.Fatalf("due %v %v: the later turn should have reset the window", due, err)
	}
	now = day1.Add(2 * time.Hour)
	if due, _ := eng.MaintenanceDue(context.Background()); !due {
		t.Fatal("nothing due after the window")
	}
	rep, err := eng.Maintain(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	notes := notesOf(t, eng)
	var commitRule, pnpm *memory.Statement
	for i, n := range notes {
		switch {
		case strings.Contains(n.Object, "Jira key"):
			commitRule = &notes[i]
		case strings.Contains(n.Object, "pnpm"):
			pnpm = &notes[i]
		case strings.Contains(n.Object, "lru-cache"):
			t.Errorf("an assistant's proposal reached L1: %q", n.Object)
		case strings.Contains(strings.ToLower(n.Object), "fridays"):
			t.Errorf("a line of cairn's own block reached L1: %q", n.Object)
		}
	}
	if commitRule == nil || pnpm == nil {
		t.Fatalf("after the window L1 should hold the commit rule and the pnpm decision; got %d notes (%+v)", len(notes), rep)
	}
	for _, n := range []*memory.Statement{commitRule, pnpm} {
		if n.Tier != memory.TierAsserted || len(n.Evidence) == 0 || n.Evidence[0].TurnSeq == 0 || n.Evidence[0].SessionRef != "day1" {
			t.Errorf("note %q lacks its tier or evidence: %+v", n.Object, n)
		}
	}
	if pnpm.Class != memory.ClassDecision {
		t.Errorf("the pnpm decision is classed %s", pnpm.Class)
	}
	tickets := currentTicket(t, eng, repo)
	if len(tickets) != 1 || tickets[0].Object != "PAY-1432" || len(tickets[0].Evidence) == 0 {
		t.Fatalf("current ticket %+v", tickets)
	}

	// A later session supersedes the ticket.
	day3 := day1.AddDate(0, 0, 2)
	later := filepath.Join(dir, "day3.jsonl")
	writeLines(t, later, claudeLines("day3", repo, day3, []ccTurn{{User: "I'm on PAY-1501 now.", Answer: "Noted."}}))
	now = day3
	importClaude(t, eng, later)
	now = day3.Add(time.Hour)
	if _, err := eng.Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	tickets = currentTicket(t, eng, repo)
	if len(tickets) != 1 || tickets[0].Object != "PAY-1501" {
		t.Fatalf("after day 3 the current ticket is %+v", tickets)
	}
	old, err := eng.AsOf(context.Background(), engine.FactQuery{Cwd: repo}, day1.Add(3*time.Hour), "world")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range old {
		if s.Predicate == "current_ticket" && s.Object == "PAY-1432" {
			found = true
		}
	}
	if !found {
		t.Fatal("the old ticket is gone from history")
	}
}

func TestNearDuplicateNotesMergeAndProfileNeedsThree(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	eng, _ := clockEngine(t, filepath.Join(t.TempDir(), "cairn.db"), &now)
	ctx := context.Background()
	cwd := t.TempDir()
	a, err := eng.Remember(ctx, "always run the unit tests before you commit", "testing", "", false, cwd)
	if err != nil {
		t.Fatal(err)
	}
	b, err := eng.Remember(ctx, "always run the unit tests before you commit!", "testing", "", false, cwd)
	if err != nil {
		t.Fatal(err)
	}
	if b.Action != "restate" || b.Statement.ID != a.Statement.ID || b.Statement.Confidence <= a.Statement.Confidence {
		t.Fatalf("near-duplicate: %+v then %+v", a, b)
	}
	if len(b.Statement.Evidence) != 2 {
		t.Fatalf("evidence not merged: %d", len(b.Statement.Evidence))
	}
	if rep, _ := eng.Maintain(ctx); rep.Profile {
		t.Fatal("a profile from one note")
	}
	for _, n := range []string{"never force-push to main", "we decided to keep a plain Map with a size cap, not lru-cache"} {
		if _, err := eng.Remember(ctx, n, "", "", false, cwd); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := eng.Maintain(ctx)
	if err != nil || !rep.Profile {
		t.Fatalf("no profile from three notes: %+v %v", rep, err)
	}
	v, _ := eng.Notes(ctx, false, false)
	if v.Profile == nil || !strings.Contains(v.Profile.Body, "force-push") {
		t.Fatalf("profile %+v", v.Profile)
	}
	if _, err := eng.Forget(ctx, engine.Ref{ID: a.Statement.ID}); err != nil {
		t.Fatal(err)
	}
	if rep, _ := eng.Maintain(ctx); rep.Profile {
		t.Fatal("the profile survived falling under three notes")
	}
	if _, err := engine.ParseRef("l1"); err == nil {
		t.Fatal("the profile must not be editable")
	}
}

func TestDueCandidatesArePromotedWhenAStoreOpens(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	repo := t.TempDir()
	path := filepath.Join(t.TempDir(), "p", "old.jsonl")
	writeLines(t, path, claudeLines("old", repo, time.Now().Add(-2*time.Hour), []ccTurn{{User: "From now on, always squash-merge pull requests.", Answer: "Will do."}}))
	importJSON(t, path) // promotes nothing itself: the candidate is just queued
	code, out, _ := run(t, "notes", "--json")
	if code != 0 || !strings.Contains(out, "squash-merge") {
		t.Fatalf("the next open did not promote the due candidate: %s", out)
	}
}

func TestEpisodeCapClosesTheOldest(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := config.Default()
	cfg.Capture.EpisodeCap = 3
	eng := engine.New(db, engine.Options{Config: cfg, Resolve: gitdir.Resolve, Readers: readers(), Now: func() time.Time { return now }})
	var turns []ccTurn
	for i := range 5 {
		turns = append(turns, ccTurn{User: "step " + string(rune('a'+i)), Answer: "done " + string(rune('a'+i))})
	}
	path := filepath.Join(t.TempDir(), "p", "s.jsonl")
	writeLines(t, path, claudeLines("s", t.TempDir(), now.Add(-time.Hour), turns))
	importClaude(t, eng, path)
	if _, err := eng.Pin(context.Background(), engine.Ref{Episode: true, ID: 1}, true); err != nil {
		t.Fatal(err)
	}
	rep, err := eng.Maintain(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	eps, err := db.Episodes(context.Background(), memory.LocalAccount, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	active := map[int64]bool{}
	for _, e := range eps {
		if e.ExpiredAt.IsZero() {
			active[e.ID] = true
		}
	}
	// 5 episodes, 1 pinned: of the 4 unpinned the 3 newest stay, the oldest
	// unpinned (e2) is closed, and closed rows are kept.
	if rep.Capped != 1 || len(eps) != 5 || active[2] || !active[1] || !active[5] {
		t.Fatalf("capped %d, episodes %d, active %v", rep.Capped, len(eps), active)
	}
}
