package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// ccTurn is one prompt and answer for a synthetic Claude Code session.
type ccTurn struct {
	User, Answer string
	ToolOutput   string    // when set, the answer first runs a Bash tool with this output
	At           time.Time // when set, the turn's lines are written from this time on
}

// claudeLines renders a session as Claude Code 2.1 JSONL lines.
func claudeLines(session, cwd string, start time.Time, turns []ccTurn) []string {
	var lines []string
	parent := "null"
	n := 0
	next := func() string { n++; return fmt.Sprintf("%s-%04d", session, n) }
	base := start
	ts := func() string { return base.Add(time.Duration(n) * time.Second).UTC().Format(time.RFC3339Nano) }
	line := func(m map[string]any) {
		uuid := next()
		m["uuid"], m["sessionId"], m["cwd"], m["timestamp"], m["version"] = uuid, session, cwd, ts(), "2.1.38"
		if parent == "null" {
			m["parentUuid"] = nil
		} else {
			m["parentUuid"] = parent
		}
		b, _ := json.Marshal(m)
		lines = append(lines, string(b))
		parent = uuid
	}
	for i, t := range turns {
		if !t.At.IsZero() {
			base = t.At.Add(-time.Duration(n) * time.Second)
		}
		line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": t.User}})
		msg := fmt.Sprintf("msg_%s_%d", session, i)
		if t.ToolOutput != "" {
			line(map[string]any{"type": "assistant", "message": map[string]any{"id": msg + "a", "role": "assistant", "model": "claude-test",
				"content": []any{map[string]any{"type": "tool_use", "id": "tu" + msg, "name": "Bash", "input": map[string]any{"command": "cat notes.txt"}}}, "stop_reason": "tool_use"}})
			line(map[string]any{"type": "user", "message": map[string]any{"role": "user",
				"content": []any{map[string]any{"type": "tool_result", "tool_use_id": "tu" + msg, "content": t.ToolOutput}}}})
		}
		line(map[string]any{"type": "assistant", "message": map[string]any{"id": msg, "role": "assistant", "model": "claude-test",
			"content": []any{map[string]any{"type": "text", "text": t.Answer}}, "stop_reason": "end_turn"}})
	}
	return lines
}

func writeLines(t testing.TB, path string, lines []string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// syntheticCorpus writes n Claude Code sessions of m turns each.
func syntheticCorpus(t testing.TB, dir string, n, m int) {
	t.Helper()
	for i := range n {
		var turns []ccTurn
		for j := range m {
			turns = append(turns, ccTurn{
				User:       fmt.Sprintf("Session %d step %d: please refactor internal/pay/charge_%d.go and keep PAY-%d passing", i, j, j, 1000+j),
				Answer:     strings.Repeat(fmt.Sprintf("Refactored charge_%d; tests pass. ", j), 20),
				ToolOutput: strings.Repeat(fmt.Sprintf("ok  \tpkg/charge_%d\t0.%03ds\n", j, j), 40),
			})
		}
		id := fmt.Sprintf("%08d-0000-4000-8000-000000000000", i)
		writeLines(t, filepath.Join(dir, "-work-proj", id+".jsonl"), claudeLines(id, "/work/proj", time.Date(2026, 5, 1, 9, 0, i, 0, time.UTC), turns))
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// cairnBinary builds the real binary once per test process.
func cairnBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cairn-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "cairn")
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..")
		// cairn-hook goes beside cairn, where it looks for the full binary.
		cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "./cmd/cairn", "./cmd/cairn-hook")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// hookBinary is the small hook client built beside cairnBinary.
func hookBinary(t testing.TB) string {
	return filepath.Join(filepath.Dir(cairnBinary(t)), "cairn-hook")
}

// cairnCmd prepares the real binary with a given home. Hooks answer
// themselves unless a test asks for the resident process: a test's hooks
// must not leave one running on its temporary home.
func cairnCmd(t testing.TB, home string, args ...string) *exec.Cmd {
	cmd := exec.Command(cairnBinary(t), args...)
	cmd.Env = append(os.Environ(), "CAIRN_HOME="+home, "NO_COLOR=1", "CAIRN_HOOKS_RESIDENT=false")
	return cmd
}

// storeCounts reads the row counts from `cairn doctor --json`.
func storeCounts(t testing.TB, home string) (map[string]int64, string) {
	t.Helper()
	out, err := cairnCmd(t, home, "doctor", "--json").Output()
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	var r struct {
		Store struct {
			Integrity string
			Rows      map[string]int64
		}
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return r.Store.Rows, r.Store.Integrity
}

// detachedUnder counts running processes started with --home dir: the
// workers a hook spawns when maintenance or extraction is due.
func detachedUnder(dir string) int {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	n := 0
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(raw, []byte("cairn")) {
			continue
		}
		// A hook passes an explicit --home on; otherwise the child inherits
		// CAIRN_HOME.
		env, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "environ"))
		if bytes.Contains(raw, []byte("--home\x00"+dir)) || bytes.Contains(env, []byte("CAIRN_HOME="+dir+"\x00")) && !bytes.Contains(raw, []byte("daemon\x00run")) {
			n++
		}
	}
	return n
}

// quietHome is a data dir for a test whose hooks may leave a detached
// worker running: at cleanup it waits (up to a minute) for them to end,
// so removing the folder does not race a worker still writing into it.
func quietHome(t *testing.T) string {
	home := t.TempDir()
	t.Cleanup(func() {
		for deadline := time.Now().Add(time.Minute); detachedUnder(home) > 0 && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
	})
	return home
}
