//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// world is one user's machine: a fake HOME shared by the three agents
// (their configuration goes where it would for a real user, under it),
// one git repository, and the cairn binary under test. cairn keeps its
// store at its default place under that HOME, which every agent and
// every MCP server sees the same way (Codex passes MCP servers only a
// few variables, HOME among them).
type world struct {
	home   string
	repo   string
	cairn  string // the binary the agents are set up to run
	real   string // the binary built from this tree
	path   string
	agents map[string]string // agent name -> its executable
	pins   map[string]string // agent name -> its pinned version
	plugin string            // OpenCode's plugin dependencies, to seed its config dir
	fault  string
}

// faults are the known breakages CAIRN_E2E_BREAK can inject, to show the
// suite notices them.
var faults = map[string]string{
	"setup-layout": "after `cairn setup claude-code`, each hook event in settings.json holds an object instead of an array of matchers",
	"hook-output":  "the context hooks (SessionStart, UserPromptSubmit, the plugin's system) print plain text instead of cairn's block",
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{agents: map[string]string{}, pins: map[string]string{}, fault: os.Getenv("CAIRN_E2E_BREAK")}
	if w.fault != "" {
		if _, ok := faults[w.fault]; !ok {
			t.Fatalf("CAIRN_E2E_BREAK=%q: known faults are %v", w.fault, faults)
		}
		t.Logf("FAULT INJECTED: %s: %s", w.fault, faults[w.fault])
	}
	cache := cacheDir(t)
	var bins []string
	for _, p := range readPins(t) {
		ensure(t, cache, p)
		if p.bin == "" {
			w.plugin = filepath.Dir(p.root(cache))
			continue
		}
		exe := filepath.Join(p.root(cache), ".bin", p.bin)
		w.agents[p.bin] = exe
		w.pins[p.bin] = p.version
		bins = append(bins, filepath.Dir(exe))
	}
	for _, a := range []string{"claude", "codex", "opencode"} {
		if w.agents[a] == "" {
			t.Fatalf("testdata/clients.txt pins no %s", a)
		}
	}
	root := evalTemp(t)
	w.home = filepath.Join(root, "home")
	w.repo = filepath.Join(root, "payments")
	binDir := filepath.Join(root, "bin")
	for _, d := range []string{w.home, w.repo, binDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.real = buildCairn(t, binDir)
	w.cairn = w.real
	// The first hook starts the resident process; it goes with the world.
	t.Cleanup(func() { run(w.repo, w.env(), w.real, "daemon", "stop") })
	if w.fault == "hook-output" {
		w.cairn = writeWrapper(t, binDir, w.real)
	}
	// The agents' own directories first: cairn runs `opencode export`,
	// and cairn setup --trust asks `codex`.
	w.path = strings.Join(append(bins, os.Getenv("PATH")), string(os.PathListSeparator))
	w.initRepo(t)
	return w
}

// evalTemp is a temporary directory by its real path: agents key their
// state by the resolved cwd.
func evalTemp(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writeWrapper is the hook-output fault: a cairn that answers the context
// hooks with plain text and passes everything else through.
func writeWrapper(t *testing.T, dir, real string) string {
	// A folder of its own: with cairn-hook beside it, setup would install
	// that and the hooks would never reach the wrapper.
	dir = filepath.Join(dir, "broken")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "cairn-broken")
	script := fmt.Sprintf(`#!/bin/sh
case "$1:$3" in
hook:SessionStart|hook:UserPromptSubmit|hook:system)
  %[1]q "$@" >/dev/null
  echo "cairn: memory is not available"
  exit 0 ;;
esac
exec %[1]q "$@"
`, real)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// env is the environment of every agent and cairn command: built from
// nothing, so that no setting of the machine running the suite (XDG
// dirs, CAIRN_*, API keys) leaks in.
func (w *world) env(extra ...string) []string {
	env := []string{
		"HOME=" + w.home, "PATH=" + w.path, "USER=e2e", "LOGNAME=e2e", "SHELL=/bin/sh",
		"LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "TMPDIR=" + os.TempDir(),
		// Nothing leaves 127.0.0.1 (real-clients.md, "Common setup").
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
		// Anything that would still reach for the npm registry gets a
		// closed port: the agents and OpenCode's plugin dependencies come
		// from the cache.
		"npm_config_registry=http://127.0.0.1:9/",
		// Claude Code with a scripted model: MCP tools in the request, and
		// the MCP server connected before the first request.
		"ENABLE_TOOL_SEARCH=false", "MCP_CONNECTION_NONBLOCKING=false",
		// The clock: candidates settle at once instead of after 30 min.
		"CAIRN_CAPTURE_SETTLING_WINDOW=0s",
		"CAIRN_E2E_OPENAI_KEY=sk-e2e-dummy",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=E2E", "GIT_AUTHOR_EMAIL=e2e@example.invalid",
		"GIT_COMMITTER_NAME=E2E", "GIT_COMMITTER_EMAIL=e2e@example.invalid",
	}
	return append(env, extra...)
}

func (w *world) initRepo(t *testing.T) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"remote", "add", "origin", "git@github.com:acme/payments.git"},
		{"commit", "-q", "--allow-empty", "-m", "PAY-1400: start the router"},
	} {
		if r := run(w.repo, w.env(), "git", args...); r.err != nil {
			t.Fatalf("git %s: %s", strings.Join(args, " "), r)
		}
	}
}

// version is an agent's pinned version.
func (w *world) version(agent string) string { return w.pins[agent] }

// run runs cairn in the repository and fails the test if it fails.
func (w *world) run(t *testing.T, args ...string) string {
	t.Helper()
	r := run(w.repo, w.env(), w.real, args...)
	if r.err != nil {
		t.Fatalf("cairn %s: %s", strings.Join(args, " "), r)
	}
	return r.stdout
}

// json runs cairn with --json and decodes what it prints into v.
func (w *world) json(t *testing.T, v any, args ...string) {
	t.Helper()
	out := w.run(t, append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("cairn %s --json: %v\n%s", strings.Join(args, " "), err, clip(out, 2000))
	}
}

// session is a row of `cairn sessions --json`.
type session struct {
	Provider   string `json:"provider"`
	ExternalID string `json:"external_id"`
	Turns      int    `json:"turn_count"`
	Parts      int    `json:"part_count"`
}

func (w *world) sessions(t *testing.T) []session {
	t.Helper()
	var ss []session
	w.json(t, &ss, "sessions")
	return ss
}

// awaitSession polls `cairn sessions` until the agent's session is
// stored with a turn: imports run detached, after the agent has exited.
func (w *world) awaitSession(t *testing.T, provider, id string, limit time.Duration) session {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		for _, s := range w.sessions(t) {
			if s.Provider == provider && s.ExternalID == id && s.Turns > 0 {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, cairn holds no %s session %s with a turn; it holds %+v\ncairn's log: %s", limit, provider, id, w.sessions(t), w.log())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// settle waits for the detached cairn processes the agents started.
func (w *world) settle(t *testing.T) {
	t.Helper()
	if err := settle(w.real, 45*time.Second); err != nil {
		t.Fatal(err)
	}
}

// rows is the row count of every table, from `cairn doctor --json`.
func (w *world) rows(t *testing.T) map[string]int {
	t.Helper()
	var d struct {
		Store struct {
			Rows map[string]int `json:"rows"`
		} `json:"store"`
	}
	w.json(t, &d, "doctor")
	if len(d.Store.Rows) == 0 {
		t.Fatal("cairn doctor --json reports no row counts")
	}
	return d.Store.Rows
}

// log is the tail of cairn's own log, where hooks record their errors.
func (w *world) log() string {
	b, err := os.ReadFile(filepath.Join(w.home, ".local", "share", "cairn", "logs", "cairn.log"))
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return clip(string(b), 3000)
}
