package app

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/memory"
)

// residentStatus asks `cairn daemon status --json`.
func residentStatus(t *testing.T, home string) cli.DaemonStatus {
	t.Helper()
	out, err := cairnCmd(t, home, "daemon", "status", "--json").Output()
	if err != nil {
		t.Fatalf("daemon status: %v", err)
	}
	var st cli.DaemonStatus
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("daemon status: %v\n%s", err, out)
	}
	return st
}

// waitResident waits for the process the first hook started.
func waitResident(t *testing.T, home string) cli.DaemonStatus {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := residentStatus(t, home)
		if st.Running {
			return st
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
			t.Fatalf("no resident process started; hooks.log:\n%s", log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func stopResident(t *testing.T, home string) {
	if out, err := cairnCmd(t, home, "daemon", "stop").CombinedOutput(); err != nil {
		t.Errorf("daemon stop: %v %s", err, out)
	}
}

// TestResidentProcessServesOnlyWhatMatches: a caller with another
// configuration in its environment is sent back and answered anyway; a
// changed config file ends the process; `cairn daemon stop` ends it.
func TestResidentProcessServesOnlyWhatMatches(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	home := t.TempDir()
	t.Cleanup(func() { stopResident(t, home) })
	repo := gitRepo(t)
	if out, err := cairnCmd(t, home, "remember", "--cwd", repo, "Release branches are cut on Thursdays.", "--pin").CombinedOutput(); err != nil {
		t.Fatalf("remember: %v %s", err, out)
	}
	start := map[string]any{"session_id": "r1", "cwd": repo, "hook_event_name": "SessionStart", "source": "startup"}
	first := additionalContext(t, hookVia(t, true, home, nil, "claude-code", "SessionStart", start))
	if !strings.Contains(first, "Thursdays") {
		t.Fatalf("the first hook (no resident process yet) lacks the rule:\n%s", first)
	}
	st := waitResident(t, home)
	if st.Served != 0 || st.PID == 0 {
		t.Fatalf("fresh resident process: %+v", st)
	}
	if want := 1; os.Getenv("GOMAXPROCS") == "" && st.Procs != want {
		t.Fatalf("the resident process runs on %d processors, want %d: %+v", st.Procs, want, st)
	}
	doctor := cairnCmd(t, home, "doctor")
	doctor.Env = append(doctor.Env, "CAIRN_HOOKS_RESIDENT=true")
	if out, err := doctor.Output(); err != nil || !strings.Contains(string(out), "resident process") {
		t.Fatalf("doctor does not show the resident process: %v\n%s", err, out)
	}
	// The process answers as the hook itself would. The first hook also
	// started the background round, which may still be writing the memory
	// files: compare with answers taken on both sides of the resident one.
	for try := 0; ; try++ {
		a := additionalContext(t, hookVia(t, false, home, nil, "claude-code", "SessionStart", start))
		b := additionalContext(t, hookVia(t, true, home, nil, "claude-code", "SessionStart", start))
		c := additionalContext(t, hookVia(t, false, home, nil, "claude-code", "SessionStart", start))
		if a == c {
			if b != a {
				t.Fatalf("the resident process answered differently from the hook itself:\n%s\n---\n%s", b, a)
			}
			break
		}
		if try == 10 {
			t.Fatal("the store kept changing under the comparison")
		}
		time.Sleep(time.Second)
	}
	// A request block's receipt is written after the answer goes out; the
	// session's next prompt still finds it, and gets no second block.
	prompt := map[string]any{"session_id": "r2", "cwd": repo, "hook_event_name": "UserPromptSubmit", "prompt": "when are release branches cut?"}
	if got := additionalContext(t, hookVia(t, true, home, nil, "claude-code", "UserPromptSubmit", prompt)); !strings.Contains(got, "Thursdays") {
		t.Fatalf("the resident request block lacks the rule:\n%s", got)
	}
	if out := hookVia(t, true, home, nil, "claude-code", "UserPromptSubmit", prompt); strings.TrimSpace(out) != "" {
		t.Fatalf("the session's second prompt got a block: %s", out)
	}
	for try := 0; ; try++ {
		out, err := cairnCmd(t, home, "receipts", "--session", "r2", "--json").Output()
		if err != nil {
			t.Fatalf("receipts: %v", err)
		}
		var rs []memory.Receipt
		if err := json.Unmarshal(out, &rs); err != nil {
			t.Fatalf("receipts: %v\n%s", err, out)
		}
		if len(rs) == 1 && rs[0].Kind == "recall" && strings.Contains(rs[0].Text, "Thursdays") {
			break
		}
		if try == 50 {
			t.Fatalf("the resident request block left no receipt: %s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	st0 := residentStatus(t, home)
	if st0.Recent != int(st0.Served) || st0.AnswerP50Ms <= 0 || st0.AnswerP95Ms < st0.AnswerP50Ms {
		t.Fatalf("the status does not time the answers it served: %+v", st0)
	}
	// Another budget in the caller's environment is another configuration:
	// the process sends the call back and cairn answers it itself.
	other := hookVia(t, true, home, []string{"CAIRN_RECALL_BUDGET_TOKENS=300"}, "claude-code", "SessionStart", start)
	if !strings.Contains(additionalContext(t, other), "Thursdays") {
		t.Fatalf("a sent-back call went unanswered: %q", other)
	}
	st = residentStatus(t, home)
	if st.Served != st0.Served || st.SentBack != st0.SentBack+1 {
		t.Fatalf("after one served and one sent-back call: %+v", st)
	}
	// A garbage payload through the resident process: nothing printed,
	// the error logged, exit 0.
	cmd := cairnCmd(t, home)
	cmd.Path, cmd.Args = hookBinary(t), []string{"cairn-hook", "claude-code", "UserPromptSubmit"}
	cmd.Env = append(cmd.Env, "CAIRN_HOOKS_RESIDENT=true")
	cmd.Stdin = strings.NewReader("{not json")
	if out, err := cmd.Output(); err != nil || len(out) != 0 {
		t.Fatalf("a broken payload must exit 0 with no output: %v %q", err, out)
	}
	if log, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log")); !strings.Contains(string(log), "payload") {
		t.Fatalf("the resident process did not log the bad payload: %q", log)
	}
	// A changed config file ends the process: it would answer with the old
	// settings.
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[recall]\nbudget_tokens = 400\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for residentStatus(t, home).Running {
		if time.Now().After(deadline) {
			t.Fatal("the resident process outlived its config file")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := additionalContext(t, hookVia(t, true, home, nil, "claude-code", "SessionStart", start)); !strings.Contains(got, "Thursdays") {
		t.Fatalf("no answer with the process gone:\n%s", got)
	}
}

// TestResidentProcessEndsWhenCairnIsReplaced: after an upgrade the process
// would answer with the old code; it must go, and the next hook must get
// an answer.
func TestResidentProcessEndsWhenCairnIsReplaced(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	dir := t.TempDir()
	for _, name := range []string{"cairn", "cairn-hook"} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(cairnBinary(t)), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	repo := gitRepo(t)
	hook := func() string {
		cmd := exec.Command(filepath.Join(dir, "cairn-hook"), "claude-code", "SessionStart")
		cmd.Env = append(os.Environ(), "CAIRN_HOME="+home, "CAIRN_HOOKS_RESIDENT=true")
		cmd.Stdin = strings.NewReader(`{"session_id":"u1","cwd":` + strconv.Quote(repo) + `,"hook_event_name":"SessionStart","source":"startup"}`)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("cairn-hook: %v", err)
		}
		return string(out)
	}
	status := func() cli.DaemonStatus {
		cmd := exec.Command(filepath.Join(dir, "cairn"), "daemon", "status", "--json")
		cmd.Env = append(os.Environ(), "CAIRN_HOME="+home)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("daemon status: %v", err)
		}
		var st cli.DaemonStatus
		if err := json.Unmarshal(out, &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	t.Cleanup(func() {
		cmd := exec.Command(filepath.Join(dir, "cairn"), "daemon", "stop")
		cmd.Env = append(os.Environ(), "CAIRN_HOME="+home)
		_ = cmd.Run()
	})
	remember := exec.Command(filepath.Join(dir, "cairn"), "remember", "--cwd", repo, "--pin", "Deploys go out on Tuesdays.")
	remember.Env = append(os.Environ(), "CAIRN_HOME="+home)
	if out, err := remember.CombinedOutput(); err != nil {
		t.Fatalf("remember: %v %s", err, out)
	}
	if out := hook(); !strings.Contains(out, "Tuesdays") {
		t.Fatalf("the first hook printed %q", out)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !status().Running {
		if time.Now().After(deadline) {
			t.Fatal("the first hook started no resident process")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// "Upgrade": a new file renamed over the old, as installers do (the
	// running binary itself cannot be written).
	b, _ := os.ReadFile(filepath.Join(dir, "cairn"))
	if err := os.WriteFile(filepath.Join(dir, "cairn.new"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "cairn.new"), filepath.Join(dir, "cairn")); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(30 * time.Second)
	for status().Running {
		if time.Now().After(deadline) {
			t.Fatal("the resident process outlived its binary")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out := hook(); !strings.Contains(out, "Tuesdays") {
		t.Fatalf("after the upgrade the hook printed %q", out)
	}
}
