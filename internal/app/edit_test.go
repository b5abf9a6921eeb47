package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

func editEngine(t *testing.T) *engine.Engine {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return engine.New(sharedStore{db}, engine.Options{Config: config.Default()})
}

// TestEditNoteKeepsHistoryAndEvidence: an edit closes the old wording as
// superseded (history, not gone) and the new row carries the old
// evidence first.
func TestEditNoteKeepsHistoryAndEvidence(t *testing.T) {
	ctx := context.Background()
	eng := editEngine(t)
	place := memory.Place{Worktree: "/w/a", Project: "/w"}
	n, err := eng.RememberAt(ctx, "commits start with the ticket key", "git", memory.ClassConvention, true, place)
	if err != nil {
		t.Fatal(err)
	}
	edited, err := eng.EditNote(ctx, n.Statement.ID, "commit subjects start with the ticket key, e.g. PAY-1432")
	if err != nil {
		t.Fatal(err)
	}
	if edited.ID == n.Statement.ID || !edited.Current() || !edited.Pinned || edited.Scope != n.Statement.Scope || edited.Category != "git" {
		t.Fatalf("edited row %+v from %+v", edited, n.Statement)
	}
	if len(edited.Evidence) < 2 || edited.Evidence[0].Source != n.Statement.Evidence[0].Source || edited.Evidence[len(edited.Evidence)-1].Source != "ui" {
		t.Fatalf("evidence %+v", edited.Evidence)
	}
	old, err := eng.Statement(ctx, n.Statement.ID)
	if err != nil {
		t.Fatal(err)
	}
	if old.Current() || old.Reason != memory.ReasonSuperseded || old.ReplacedBy != edited.ID {
		t.Fatalf("old row %+v", old)
	}
	for _, tc := range []struct {
		name string
		id   int64
		text string
		want string
	}{
		{"closed row", old.ID, "x", "not current"},
		{"empty text", edited.ID, "  ", "empty"},
		{"credential", edited.ID, "token ghp_" + strings.Repeat("a1B2", 9), "credential"},
	} {
		if _, err := eng.EditNote(ctx, tc.id, tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestMoveFactChangesWhatAPlaceReads: a fact moved from one worktree to
// its project is read from a sibling worktree afterwards, and not
// before; the old row is withdrawn as moved and cannot be reopened into
// a second copy.
func TestMoveFactChangesWhatAPlaceReads(t *testing.T) {
	ctx := context.Background()
	eng := editEngine(t)
	a := memory.Place{Worktree: "/w/a", Project: "/w"}
	b := memory.Place{Worktree: "/w/b", Project: "/w"}
	f, err := eng.Write(ctx, engine.Write{Draft: memory.Draft{Kind: memory.KindFact, Subject: "ci", Predicate: "provider",
		Object: "Buildkite", Rung: memory.RungWorktree}, Writer: memory.WriterCLI, Place: &a})
	if err != nil {
		t.Fatal(err)
	}
	seen := func(p memory.Place) []string {
		t.Helper()
		v, err := eng.Facts(ctx, engine.FactQuery{Place: &p})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range v.Current {
			out = append(out, s.Object)
		}
		return out
	}
	if got := seen(b); len(got) != 0 {
		t.Fatalf("control: sibling worktree sees %v before the move", got)
	}
	moved, err := eng.MoveFact(ctx, f.Statement.ID, a, memory.RungProject)
	if err != nil {
		t.Fatal(err)
	}
	if moved.Scope != (memory.Scope{Rung: memory.RungProject, Key: "/w"}) || !moved.ValidAt.Equal(f.Statement.ValidAt.Truncate(time.Millisecond)) {
		t.Fatalf("moved %+v", moved)
	}
	if got := seen(b); len(got) != 1 || got[0] != "Buildkite" {
		t.Fatalf("sibling worktree after the move sees %v", got)
	}
	if got := seen(a); len(got) != 1 {
		t.Fatalf("the fact's own worktree sees %v: one copy expected", got)
	}
	if _, err := eng.Reopen(ctx, f.Statement.ID); err == nil || !strings.Contains(err.Error(), "moved") {
		t.Fatalf("reopening the moved row: %v", err)
	}
	env, err := eng.Write(ctx, engine.Write{Draft: memory.Draft{Kind: memory.KindFact, Subject: "staging", Predicate: "host",
		Object: "stage-3", Class: memory.ClassEnvironment}, Writer: memory.WriterCLI, Place: &a})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		id    int64
		place memory.Place
		rung  memory.Rung
		want  string
	}{
		{"no repo rung", moved.ID, a, memory.RungRepo, "no \"repo\" rung"},
		{"not visible", moved.ID, memory.Place{Worktree: "/x", Project: "/x"}, memory.RungEverywhere, "does not see"},
		{"environment stays in its project", env.Statement.ID, a, memory.RungEverywhere, "an environment fact stays within its project"},
	} {
		if _, err := eng.MoveFact(ctx, tc.id, tc.place, tc.rung); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
}
