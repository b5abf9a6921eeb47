package app

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/filelock"
)

// dueStore is a store with a candidate whose settling window has passed,
// and a factory over it, as a hook has it, that records what it spawns.
func dueStore(t *testing.T) (home, db string, f *cli.Factory, spawned *[][]string, eng *engine.Engine) {
	t.Helper()
	home = t.TempDir()
	db = filepath.Join(home, "cairn.db")
	now := time.Now()
	eng, _ = clockEngine(t, db, &now)
	session := filepath.Join(t.TempDir(), "s.jsonl")
	writeLines(t, session, claudeLines("s", t.TempDir(), now.Add(-2*time.Hour), []ccTurn{{User: "From now on, always squash-merge pull requests.", Answer: "Will do."}}))
	importClaude(t, eng, session)
	f = newFactory(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, func(k string) string {
		if k == "CAIRN_HOME" {
			return home
		}
		return ""
	})
	spawned = &[][]string{}
	f.Spawn = func(args ...string) error { *spawned = append(*spawned, args); return nil }
	f.Hook = true
	return home, db, f, spawned, eng
}

// TestHookHandsDueWorkToADetachedProcess: a hook only checks whether work
// is due and starts `cairn worker --once`; any other command opening the
// store promotes due candidates itself.
func TestHookHandsDueWorkToADetachedProcess(t *testing.T) {
	ctx := context.Background()
	_, db, f, spawned, eng := dueStore(t)
	hookEng, err := f.OpenEngine(ctx, db, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	hookEng.Close()
	if len(*spawned) != 1 || !slices.Equal((*spawned)[0], []string{"worker", "--once"}) {
		t.Fatalf("the hook started %v, want one `worker --once`", *spawned)
	}
	if n := notesOf(t, eng); len(n) != 0 {
		t.Fatalf("the hook promoted inline: %v", n)
	}

	f.Hook = false
	cliEng, err := f.OpenEngine(ctx, db, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	cliEng.Close()
	if len(*spawned) != 1 {
		t.Fatalf("a command spawned a process: %v", *spawned)
	}
	if n := notesOf(t, eng); len(n) != 1 {
		t.Fatalf("opening the store from a command did not promote the due candidate: %v", n)
	}
}

// TestNoNewRoundRightAfterOne: a hook that fires while a round has just
// started (or finished) does not start another process.
func TestNoNewRoundRightAfterOne(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	eng, _ := clockEngine(t, filepath.Join(t.TempDir(), "cairn.db"), &now)
	session := filepath.Join(t.TempDir(), "s.jsonl")
	writeLines(t, session, claudeLines("s", t.TempDir(), now.Add(-2*time.Hour), []ccTurn{{User: "From now on, always squash-merge pull requests.", Answer: "Will do."}}))
	importClaude(t, eng, session)
	if due, err := eng.WorkDue(ctx); err != nil || !due {
		t.Fatalf("a due candidate: due %v %v", due, err)
	}
	if _, err := eng.WorkOnce(ctx); err != nil {
		t.Fatal(err)
	}
	writeLines(t, session, claudeLines("s", t.TempDir(), now.Add(-2*time.Hour), []ccTurn{
		{User: "From now on, always squash-merge pull requests.", Answer: "Will do."},
		{User: "Never force-push to main.", Answer: "Understood."},
	}))
	importClaude(t, eng, session)
	if due, _ := eng.WorkDue(ctx); due {
		t.Fatal("a round was started again seconds after the last one")
	}
	now = now.Add(2 * time.Minute)
	if due, _ := eng.WorkDue(ctx); !due {
		t.Fatal("the new candidate is not due once the gap has passed")
	}
}

// TestOneWorkerAtATime: while a `cairn worker --once` runs (its lock is
// held), a hook starts no other, and a second one started by hand exits at
// once instead of maintaining beside the first.
func TestOneWorkerAtATime(t *testing.T) {
	ctx := context.Background()
	home, db, f, spawned, eng := dueStore(t)

	// A round running: its process holds the worker lock.
	release, ok, err := filelock.Try(filepath.Join(home, "run", "worker.lock"))
	if err != nil || !ok {
		t.Fatalf("take the worker lock: %v %v", ok, err)
	}
	hookEng, err := f.OpenEngine(ctx, db, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	hookEng.Close()
	if len(*spawned) != 0 {
		t.Fatalf("a hook started %v while a worker held the lock", *spawned)
	}
	out, err := cairnCmd(t, home, "worker", "--once").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "another cairn process is running the background work") {
		t.Fatalf("a second worker: %v %s", err, out)
	}
	if n := notesOf(t, eng); len(n) != 0 {
		t.Fatalf("the second worker maintained beside the first: %v", n)
	}
	// The lock released, the hook starts one.
	release()
	hookEng, err = f.OpenEngine(ctx, db, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	hookEng.Close()
	if len(*spawned) != 1 || !slices.Equal((*spawned)[0], []string{"worker", "--once"}) {
		t.Fatalf("with the lock free the hook started %v", *spawned)
	}
}
