package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestVaultCommands drives the vault through the CLI as a person would:
// consolidate, read, remember and forget a note, see the status, mirror
// another agent's memory and reset.
func TestVaultCommands(t *testing.T) {
	home, userHome := t.TempDir(), t.TempDir()
	t.Setenv("CAIRN_HOME", home)
	t.Setenv("HOME", userHome)
	t.Setenv("CODEX_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CAIRN_PHASE1_IDLE", "1h")
	autoMemory := filepath.Join(userHome, ".claude", "projects", "-src-shop", "memory", "MEMORY.md")
	writeLines(t, autoMemory, []string{"# Shop notes", "- The staging database is shop-staging-2."})

	repo := t.TempDir()
	proj := filepath.Join(t.TempDir(), "projects")
	writeLines(t, filepath.Join(proj, "s1.jsonl"), claudeLines("s1", repo, time.Now().Add(-3*time.Hour), []ccTurn{
		{User: "We decided to use pnpm, never npm.", Answer: "Noted, pnpm it is."},
	}))
	mustRun := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, args...)
		if code != 0 {
			t.Fatalf("cairn %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}
	mustRun("import", "--claude-code="+proj)
	mustRun("maintain")
	var rep struct {
		Phase1 struct{ Extracted int } `json:"phase1"`
		Phase2 []struct {
			Ran      bool
			Mirrored int
		} `json:"phase2"`
	}
	if err := json.Unmarshal([]byte(mustRun("consolidate", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Phase1.Extracted != 1 || len(rep.Phase2) != 1 || !rep.Phase2[0].Ran || rep.Phase2[0].Mirrored != 1 {
		t.Fatalf("consolidate: %+v", rep)
	}
	ls := mustRun("vault", "ls")
	for _, want := range []string{"MEMORY.md", "memory_summary.md", "raw_memories.md", "rollout_summaries/", "extensions/claude_code/-src-shop/MEMORY.md"} {
		if !strings.Contains(ls, want) {
			t.Errorf("vault ls lacks %s:\n%s", want, ls)
		}
	}
	if out := mustRun("vault", "cat", "MEMORY.md"); !strings.Contains(out, "pnpm") {
		t.Errorf("MEMORY.md lacks the decision:\n%s", out)
	}
	if out := mustRun("vault", "grep", "shop-staging"); !strings.Contains(out, "extensions/claude_code/-src-shop/MEMORY.md:2:") {
		t.Errorf("grep did not find the mirrored line:\n%s", out)
	}
	if code, _, _ := run(t, "vault", "cat", "../cairn.db"); code == 0 {
		t.Error("vault cat read outside the vault")
	}

	// A remembered note is a file at once; forget removes it, undo
	// brings it back.
	var res struct {
		Statement struct{ ID int64 } `json:"statement"`
	}
	if err := json.Unmarshal([]byte(mustRun("remember", "--json", "--cwd", repo, "Use tabs in Makefiles.")), &res); err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(home, "vault", "extensions", "ad_hoc", "notes", strconv.FormatInt(res.Statement.ID, 10)+".md")
	if b, err := os.ReadFile(note); err != nil || !strings.Contains(string(b), "Use tabs in Makefiles.") {
		t.Fatalf("note file: %v %q", err, b)
	}
	var st struct {
		Baselines int
		Changes   []struct{ Path, Kind string }
	}
	if err := json.Unmarshal([]byte(mustRun("vault", "status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Baselines != 1 || len(st.Changes) != 1 || st.Changes[0].Kind != "added" {
		t.Fatalf("status: %+v", st)
	}
	mustRun("forget", strconv.FormatInt(res.Statement.ID, 10))
	if _, err := os.Stat(note); err == nil {
		t.Fatal("a forgotten note kept its file")
	}
	mustRun("undo", strconv.FormatInt(res.Statement.ID, 10))
	if _, err := os.Stat(note); err != nil {
		t.Fatal("undo did not bring the note's file back")
	}

	// The other agent's file goes; its mirror follows.
	if err := os.Remove(autoMemory); err != nil {
		t.Fatal(err)
	}
	mustRun("consolidate")
	if strings.Contains(mustRun("vault", "ls"), "claude_code") {
		t.Error("the mirror of a deleted file stayed")
	}

	// Reset asks first, and refuses a data dir reached through a link.
	if code, _, errOut := run(t, "reset"); code == 0 || !strings.Contains(errOut, "not confirmed") {
		t.Fatalf("reset without confirmation: %d %s", code, errOut)
	}
	if !strings.Contains(mustRun("vault", "ls"), "MEMORY.md") {
		t.Fatal("an unconfirmed reset deleted files")
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CAIRN_HOME", link)
	if code, _, errOut := run(t, "reset", "--yes"); code == 0 || !strings.Contains(errOut, "symbolic link") {
		t.Fatalf("reset through a link: %d %s", code, errOut)
	}
	t.Setenv("CAIRN_HOME", home)
	mustRun("reset", "--yes")
	if ls := mustRun("vault", "ls"); strings.Contains(ls, ".md") {
		t.Fatalf("files left after reset:\n%s", ls)
	}
	if err := json.Unmarshal([]byte(mustRun("vault", "status", "--json")), &st); err != nil || st.Baselines != 0 {
		t.Fatalf("history left after reset: %+v %v", st, err)
	}
	// The next consolidation starts afresh from the sessions.
	if err := json.Unmarshal([]byte(mustRun("consolidate", "--json")), &rep); err != nil || rep.Phase1.Extracted != 1 {
		t.Fatalf("after reset: %+v %v", rep, err)
	}
}
