package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
)

// TestHookHandsDueWorkToADetachedProcess: a hook only checks whether work
// is due and starts `cairn worker --once`; any other command opening the
// store promotes due candidates itself.
func TestHookHandsDueWorkToADetachedProcess(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	db := filepath.Join(home, "cairn.db")
	now := time.Now()
	eng, _ := clockEngine(t, db, &now)
	session := filepath.Join(t.TempDir(), "s.jsonl")
	writeLines(t, session, claudeLines("s", t.TempDir(), now.Add(-2*time.Hour), []ccTurn{{User: "From now on, always squash-merge pull requests.", Answer: "Will do."}}))
	importClaude(t, eng, session)

	getenv := func(k string) string {
		if k == "CAIRN_HOME" {
			return home
		}
		return ""
	}
	f := newFactory(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, getenv)
	var spawned [][]string
	f.Spawn = func(args ...string) error { spawned = append(spawned, args); return nil }
	f.Hook = true
	hookEng, err := f.OpenEngine(ctx, db, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	hookEng.Close()
	if len(spawned) != 1 || !slices.Equal(spawned[0], []string{"worker", "--once"}) {
		t.Fatalf("the hook started %v, want one `worker --once`", spawned)
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
	if len(spawned) != 1 {
		t.Fatalf("a command spawned a process: %v", spawned)
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
	home := t.TempDir()
	db := filepath.Join(home, "cairn.db")
	now := time.Now()
	eng, _ := clockEngine(t, db, &now)
	session := filepath.Join(t.TempDir(), "s.jsonl")
	writeLines(t, session, claudeLines("s", t.TempDir(), now.Add(-2*time.Hour), []ccTurn{{User: "From now on, always squash-merge pull requests.", Answer: "Will do."}}))
	importClaude(t, eng, session)

	lockPath := filepath.Join(home, "run", "worker.lock")
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	f := newFactory(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, func(k string) string {
		if k == "CAIRN_HOME" {
			return home
		}
		return ""
	})
	var spawned [][]string
	f.Spawn = func(args ...string) error { spawned = append(spawned, args); return nil }
	f.Hook = true
	hookEng, err := f.OpenEngine(ctx, db, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	hookEng.Close()
	if len(spawned) != 0 {
		t.Fatalf("a hook started %v while a worker held the lock", spawned)
	}
	out, err := cairnCmd(t, home, "worker", "--once").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "another cairn process is running the background work") {
		t.Fatalf("a second worker: %v %s", err, out)
	}
	if n := notesOf(t, eng); len(n) != 0 {
		t.Fatalf("the second worker maintained beside the first: %v", n)
	}
	// The lock released, the hook starts one.
	lock.Close()
	hookEng, err = f.OpenEngine(ctx, db, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	hookEng.Close()
	if len(spawned) != 1 || !slices.Equal(spawned[0], []string{"worker", "--once"}) {
		t.Fatalf("with the lock free the hook started %v", spawned)
	}
}
