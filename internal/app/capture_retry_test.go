package app

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// failingCapture is the real store whose first capture write fails, as a
// busy store or a killed import would leave it.
type failingCapture struct {
	*sqlite.DB
	failed bool
}

func (f *failingCapture) SaveCapture(ctx context.Context, acct memory.AccountID, eps []memory.Episode, cands []memory.CandidateSet, ps []temporal.Proposal) ([]temporal.Applied, error) {
	if !f.failed {
		f.failed = true
		return nil, errors.New("database is locked (injected)")
	}
	return f.DB.SaveCapture(ctx, acct, eps, cands, ps)
}

// TestFailedCaptureRunsAgain: a session saved while its capture failed is
// learned from by the next import of the same, unchanged transcript,
// which used to find every turn unchanged and skip it for good.
func TestFailedCaptureRunsAgain(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := &failingCapture{DB: db}
	eng := engine.New(st, engine.Options{Config: config.Default(), Readers: readers()})
	repo := t.TempDir()
	path := filepath.Join(t.TempDir(), "22222222-3333-4444-8555-666666666666.jsonl")
	writeLines(t, path, claudeLines("22222222-3333-4444-8555-666666666666", repo, time.Now().Add(-time.Hour), []ccTurn{
		{User: "always run make lint before pushing", Answer: "Understood: make lint before every push."},
	}))
	episodes := func() int {
		t.Helper()
		v, err := eng.Notes(ctx, true, true)
		if err != nil {
			t.Fatal(err)
		}
		return len(v.Episodes)
	}
	reps, err := eng.Import(ctx, engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{path}})
	if err == nil && (len(reps) == 0 || reps[0].Error == "") {
		t.Fatalf("control: the injected failure did not fail the import: %+v", reps)
	}
	if n := episodes(); n != 0 {
		t.Fatalf("control: %d episodes after a failed capture", n)
	}
	if _, err := eng.Import(ctx, engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{path}, Force: true}); err != nil {
		t.Fatal(err)
	}
	if n := episodes(); n != 1 {
		t.Fatalf("the second import learned %d episodes from the turn whose capture failed, want 1", n)
	}
	// Once learned from, the turn is not learned from again.
	if _, err := eng.Import(ctx, engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{path}, Force: true}); err != nil {
		t.Fatal(err)
	}
	if n := episodes(); n != 1 {
		t.Fatalf("a third import made %d episodes", n)
	}
}
