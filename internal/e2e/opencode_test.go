//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// openCodeConfig points OpenCode at the scripted model through its
// built-in @ai-sdk/openai provider (the Responses API). The base URL comes
// from the environment, since every test has its own server. Snapshots
// (a git copy of the project per run) are off: they cost seconds and
// concern nothing of cairn's.
const openCodeConfig = `{
  "$schema": "https://opencode.ai/config.json",
  "model": "scripted/scripted-model",
  "autoupdate": false,
  "share": "disabled",
  "snapshot": false,
  "provider": {
    "scripted": {
      "npm": "@ai-sdk/openai",
      "name": "scripted",
      "options": {"baseURL": "{env:CAIRN_E2E_OPENAI_BASE_URL}", "apiKey": "{env:CAIRN_E2E_OPENAI_KEY}"},
      "models": {"scripted-model": {"name": "scripted-model", "tool_call": true}}
    }
  }
}
`

// setupOpenCode writes the provider, seeds the config dir with the plugin
// dependencies OpenCode would otherwise fetch from the registry on first
// load (64 MB, tens of seconds, and a network need), then lets cairn add
// its plugin and MCP server.
func (w *world) setupOpenCode(t *testing.T) {
	t.Helper()
	dir := filepath.Join(w.home, ".config", "opencode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "opencode.json"), []byte(openCodeConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"package.json", "package-lock.json", "node_modules"} {
		if err := copyTree(filepath.Join(w.plugin, name), filepath.Join(dir, name)); err != nil {
			t.Fatalf("seed OpenCode's plugin dependencies: %v", err)
		}
	}
	w.run(t, "setup", "opencode", "--cairn", w.cairn)
	if _, err := os.Stat(filepath.Join(dir, "plugins", "cairn.js")); err != nil {
		t.Fatalf("cairn setup opencode wrote no plugin: %v", err)
	}
}

// openCodeRun is one `opencode run` turn.
type openCodeRun struct {
	result
	Session string
}

func (w *world) opencode(t *testing.T, srv *Server, prompt string, extraEnv ...string) openCodeRun {
	t.Helper()
	env := w.env(append([]string{"CAIRN_E2E_OPENAI_BASE_URL=" + srv.URL() + "/v1"}, extraEnv...)...)
	r := run(w.repo, env, w.agents["opencode"], "run", "--format", "json", prompt)
	out := openCodeRun{result: r}
	for _, line := range strings.Split(r.stdout, "\n") {
		var ev struct {
			SessionID string `json:"sessionID"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.SessionID != "" {
			out.Session = ev.SessionID
			break
		}
	}
	if r.err != nil || out.Session == "" {
		t.Fatalf("opencode run: %s", r)
	}
	t.Logf("opencode run: session %s, %s", out.Session, r.took.Round(time.Millisecond))
	return out
}

// openCodeRecall: cairn's plugin adds the block to the system prompt, the
// session reaches cairn when it goes idle, and the MCP tool (named
// <server>_<tool> in OpenCode) answers.
func (w *world) openCodeRecall(t *testing.T) {
	srv := startServer(t, Step{Tool: "cairn_memory_search", Args: json.RawMessage(`{"query":"router cache"}`),
		Text: "Memory says: a plain Map with a size cap."})
	c := w.opencode(t, srv, "Add a cache to the router.")
	first := firstTurn(t, srv)
	bs := requireMemory(t, first)
	logBlockSize(t, "opencode", first, bs)
	requireTools(t, first, "cairn_")
	for _, key := range []string{ruleKey, decisionKey} {
		if role := roleOf(first, key); role == "user" || role == "" {
			t.Errorf("%q reached the model as %q; the plugin adds it to the system prompt", key, role)
		}
	}
	requireToolResult(t, srv, decisionKey)
	// session.idle -> the plugin -> `cairn hook opencode idle` -> a
	// detached `cairn import`, which asks `opencode export`: slower than
	// the other agents' imports.
	w.awaitSession(t, "opencode", c.Session, 30*time.Second)
	w.settle(t)
}

// openCodeChecks: `opencode mcp list` connects to every server and exits
// 0 even when one fails, so its text is read.
func (w *world) openCodeChecks(t *testing.T) {
	r := run(w.repo, w.env(), w.agents["opencode"], "mcp", "list")
	out := ansi.ReplaceAllString(r.stdout+r.stderr, "")
	if r.err != nil || !regexp.MustCompile(`✓ cairn\s+connected`).MatchString(out) {
		t.Errorf("opencode mcp list does not show cairn connected: %s", r)
	}
	if strings.Contains(out, "✗") {
		t.Errorf("opencode mcp list shows a failed server:\n%s", out)
	}
}
