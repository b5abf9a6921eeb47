package app

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// TestVersionSwitchAppliesToNewSessions: a session keeps the memory
// version in force when it was first seen; a switch to v2 learns only
// from sessions that start after it.
func TestVersionSwitchAppliesToNewSessions(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	w := &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()}
	eng, db := w.engine(t, "proc-a", nil)
	repo := t.TempDir()
	proj := filepath.Join(t.TempDir(), "projects", "repo")
	writeLines(t, filepath.Join(proj, "old.jsonl"), claudeLines("old", repo, t0.Add(-9*time.Hour), []ccTurn{
		{User: "We decided to use pnpm, never npm.", Answer: "Noted."},
	}))
	importClaude(t, eng, filepath.Join(proj, "old.jsonl"))
	if err := eng.SetSetting(ctx, "memory.version", "v2"); err != nil {
		t.Fatal(err)
	}
	writeLines(t, filepath.Join(proj, "new.jsonl"), claudeLines("new", repo, t0.Add(-8*time.Hour), []ccTurn{
		{User: "Always run make lint before pushing.", Answer: "Will do."},
	}))
	importClaude(t, eng, filepath.Join(proj, "new.jsonl"))
	if _, err := eng.Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := eng.ExtractDue(ctx)
	if err != nil || rep.Eligible != 2 || rep.Skipped != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	v2, err := db.Extractions(ctx, memory.LocalAccount, distill.V2)
	if err != nil || len(v2) != 1 || v2[0].SessionRef != "new" {
		t.Fatalf("v2 extractions: %+v %v", v2, err)
	}
	if v, ok, _ := db.SessionVersion(ctx, memory.LocalAccount, v2[0].SessionID); !ok || v != "v2" {
		t.Errorf("new session recorded as %q", v)
	}
}
