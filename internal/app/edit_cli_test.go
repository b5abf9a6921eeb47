package app

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// TestEditAndMoveCommands: `cairn edit` and `cairn fact move` work on the
// local store and, in remote mode, through the gateway, on the same
// rows; bad input is refused with a message and changes nothing.
func TestEditAndMoveCommands(t *testing.T) {
	s := newRemoteSetup(t)
	row := func(out string) memory.Statement {
		t.Helper()
		var st memory.Statement
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("not a statement: %v\n%s", err, out)
		}
		return st
	}
	var wr struct{ Statement memory.Statement }
	if err := json.Unmarshal([]byte(mustRun(t, s.local, "remember", "deploys go out on tuesdays", "--cwd", s.repo, "--json")), &wr); err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(wr.Statement.ID, 10)
	edited := row(mustRun(t, s.remote, "edit", id, "deploys", "go", "out", "on", "Tuesdays", "and", "Thursdays", "--json"))
	if edited.Object != "deploys go out on Tuesdays and Thursdays" || edited.ID == wr.Statement.ID {
		t.Fatalf("remote edit: %+v", edited)
	}
	var notes struct{ Notes []memory.Statement }
	if err := json.Unmarshal([]byte(mustRun(t, s.local, "notes", "--json")), &notes); err != nil {
		t.Fatal(err)
	}
	if len(notes.Notes) != 1 || notes.Notes[0].ID != edited.ID {
		t.Fatalf("local notes after a remote edit: %+v", notes.Notes)
	}

	var fr struct{ Statement memory.Statement }
	if err := json.Unmarshal([]byte(mustRun(t, s.local, "fact", "assert", "staging", "host", "stage-3.internal", "--place", "worktree", "--cwd", s.repo, "--json")), &fr); err != nil {
		t.Fatal(err)
	}
	fact := fr.Statement
	moved := row(mustRun(t, s.remote, "fact", "move", strconv.FormatInt(fact.ID, 10), "project", "--cwd", s.repo, "--json"))
	if moved.Scope.Rung != memory.RungProject || moved.Object != "stage-3.internal" {
		t.Fatalf("remote move: %+v", moved)
	}
	again := row(mustRun(t, s.local, "fact", "move", strconv.FormatInt(moved.ID, 10), "everywhere", "--cwd", s.repo, "--json"))
	if again.Scope.Rung != memory.RungEverywhere {
		t.Fatalf("local move: %+v", again)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{s.remote, []string{"fact", "move", strconv.FormatInt(again.ID, 10), "nowhere", "--cwd", s.repo}, "not a rung"},
		{s.remote, []string{"fact", "move", strconv.FormatInt(fact.ID, 10), "repo", "--cwd", s.repo}, "not current"},
		{s.local, []string{"edit", strconv.FormatInt(wr.Statement.ID, 10), "again"}, "not current"},
		{s.remote, []string{"edit", strconv.FormatInt(edited.ID, 10), "token", "ghp_" + strings.Repeat("a1B2", 9)}, "credential"},
	} {
		code, _, errOut := runEnv(t, tc.env, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("cairn %s: exit %d %q, want an error naming %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, s.local, "notes", "--json")), &notes); err != nil {
		t.Fatal(err)
	}
	if len(notes.Notes) != 1 || notes.Notes[0].ID != edited.ID {
		t.Fatalf("refused edits changed the notes: %+v", notes.Notes)
	}
}
