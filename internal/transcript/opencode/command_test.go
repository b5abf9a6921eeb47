package opencode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

const (
	parentID = "ses_dd462f356ffersuwv3QaQH3H8J"
	childID  = "ses_dd462d815ffeG6IOC57Ownb99s"
)

// fakeOpencode writes a shell script that answers like the 1.18.33 CLI
// from the real fixtures: `export <id>` prints the export (and
// "Exporting session: <id>" on stderr, as the real one does), an unknown
// id fails with the real error text, `session list` prints the recorded
// list and writes its working directory to pwdFile. OC_FAKE_CHILD_FAILS
// makes the subagent's export fail; OC_FAKE_BANNER prints a notice on
// stdout before the JSON.
func fakeOpencode(t *testing.T) (bin, pwdFile string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake CLI is a shell script")
	}
	abs, err := filepath.Abs("testdata/real")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pwdFile = filepath.Join(dir, "pwd")
	script := fmt.Sprintf(`#!/bin/sh
fx=%q
case "$1" in
export)
  echo "Exporting session: $2" >&2
  [ -n "$OC_FAKE_BANNER" ] && echo "Performing one time database migration..."
  case "$2" in
  %s) cat "$fx/task-filter-killed.export.json" ;;
  %s) if [ -n "$OC_FAKE_CHILD_FAILS" ]; then echo "boom" >&2; exit 2; fi
      cat "$fx/subagent.export.json" ;;
  hang) exec sleep 60 ;;
  *) printf '\033[91m\033[1mError: \033[0mSession not found: %%s\n' "$2" >&2; exit 1 ;;
  esac ;;
session)
  pwd > %q
  [ -n "$OC_FAKE_EMPTY" ] && exit 0
  cat "$fx/session-list.json" ;;
*) echo "unknown command" >&2; exit 1 ;;
esac
`, abs, parentID, childID, pwdFile)
	bin = filepath.Join(dir, "opencode")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, pwdFile
}

// TestExportSessionFollowsSubagents: the parent's task call names its
// child session, which the list never shows; both come back.
func TestExportSessionFollowsSubagents(t *testing.T) {
	bin, _ := fakeOpencode(t)
	res, err := ExportSession(context.Background(), bin, parentID)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 2 || res.Sessions[0].ExternalID != parentID || res.Sessions[1].ExternalID != childID {
		t.Fatalf("sessions = %d", len(res.Sessions))
	}
	if !res.Sessions[1].Subagent || res.Sessions[1].ParentExternalID != parentID {
		t.Errorf("child = %+v", res.Sessions[1])
	}
	// 46 records in the parent, 7 in the child.
	if res.Stats.Lines != 53 || res.Stats.SkippedTotal() != 0 {
		t.Errorf("stats = %+v", res.Stats)
	}
	// The same as parsing the files directly.
	if got, want := len(res.Sessions[0].Turns), len(parseFile(t, "real/task-filter-killed.export.json").Sessions[0].Turns); got != want {
		t.Errorf("turns = %d, want %d", got, want)
	}
}

func TestExportSessionChildFails(t *testing.T) {
	bin, _ := fakeOpencode(t)
	t.Setenv("OC_FAKE_CHILD_FAILS", "1")
	res, err := ExportSession(context.Background(), bin, parentID)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 1 || res.Stats.Skipped["subagent session not exported"] != 1 {
		t.Errorf("sessions = %d, stats = %+v", len(res.Sessions), res.Stats)
	}
}

func TestExportSessionBanner(t *testing.T) {
	bin, _ := fakeOpencode(t)
	t.Setenv("OC_FAKE_BANNER", "1")
	res, err := ExportSession(context.Background(), bin, childID)
	if err != nil || len(res.Sessions) != 1 {
		t.Fatalf("sessions = %d, err = %v", len(res.Sessions), err)
	}
}

func TestExportSessionErrors(t *testing.T) {
	bin, _ := fakeOpencode(t)
	ctx := context.Background()

	_, err := ExportSession(ctx, bin, "ses_missing")
	if err == nil || !strings.Contains(err.Error(), "Error: Session not found: ses_missing") || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("missing session: %v", err)
	}
	if memory.ErrorCode(err) != memory.CodeUnavailable {
		t.Errorf("missing session code = %s", memory.ErrorCode(err))
	}

	for _, id := range []string{"", "-h", "--help", "a b", "ses_x;rm"} {
		if _, err := ExportSession(ctx, bin, id); memory.ErrorCode(err) != memory.CodeInvalid {
			t.Errorf("id %q: %v", id, err)
		}
	}

	_, err = ExportSession(ctx, filepath.Join(t.TempDir(), "no-such-opencode"), parentID)
	if memory.ErrorCode(err) != memory.CodeUnavailable || memory.ErrorMessage(err) == "" {
		t.Errorf("missing binary: %v", err)
	}
}

// TestExportSessionCancel: cancelling the context kills a CLI that hangs.
func TestExportSessionCancel(t *testing.T) {
	bin, _ := fakeOpencode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := ExportSession(ctx, bin, "hang")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's", err)
	}
}

func TestListSessions(t *testing.T) {
	bin, pwdFile := fakeOpencode(t)
	dir := t.TempDir()
	refs, err := ListSessions(context.Background(), bin, dir)
	if err != nil {
		t.Fatal(err)
	}
	// The three top-level sessions of the recording, most recently
	// updated first (the MCP turn was the last prompt); the subagent
	// session is not listed by OpenCode.
	want := []string{"ses_dd46394a6ffeEGIHS6fv7J3CaK", "ses_dd46453a6ffeXulBS18MWvOTuX", "ses_dd462f356ffersuwv3QaQH3H8J"}
	if len(refs) != len(want) {
		t.Fatalf("refs = %+v", refs)
	}
	for i, r := range refs {
		if r.ID != want[i] || r.Directory != "/tmp/ocr/demo-repo" || r.Title == "" || r.Created.IsZero() || r.Updated.Before(r.Created) ||
			r.ProjectID != "788ad91b1f3932ed780b60c23c2cb09047a4142f" {
			t.Errorf("ref %d = %+v", i, r)
		}
	}
	got, err := os.ReadFile(pwdFile)
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(dir); strings.TrimSpace(string(got)) != real && strings.TrimSpace(string(got)) != dir {
		t.Errorf("ran in %q, want %q", got, dir)
	}

	t.Setenv("OC_FAKE_EMPTY", "1")
	refs, err = ListSessions(context.Background(), bin, dir)
	if err != nil || refs != nil {
		t.Errorf("empty project: %v, %v", refs, err)
	}
}

func TestDefaultRoot(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/x/data")
	if got := DefaultRoot(); got != filepath.Join("/x/data", "opencode") {
		t.Errorf("with XDG_DATA_HOME: %q", got)
	}
	t.Setenv("XDG_DATA_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/u")
	if got := DefaultRoot(); runtime.GOOS != "windows" && got != "/home/u/.local/share/opencode" {
		t.Errorf("from HOME: %q", got)
	}
}
