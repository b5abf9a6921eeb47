//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexConfig points Codex at the scripted model. Top-level keys come
// before any table; the base URL is given per run with -c, since every
// test has its own server.
const codexConfig = `model = "scripted-model"
model_provider = "scripted"
check_for_update_on_startup = false

[model_providers.scripted]
name = "scripted"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
env_key = "CAIRN_E2E_OPENAI_KEY"
`

// setupCodex writes the model provider, then lets cairn add its hooks, its
// MCP server and, with --trust, the trust records Codex needs before it
// runs user hooks (asked of the installed codex through its app-server,
// offline). Nothing below bypasses trust: hooks that did not get it
// would be skipped silently and the block would be missing.
func (w *world) setupCodex(t *testing.T) {
	t.Helper()
	dir := filepath.Join(w.home, ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(codexConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Trusted []string `json:"trusted"`
	}
	w.json(t, &rep, "setup", "codex", "--trust", "--cairn", w.cairn)
	for _, ev := range []string{"session_start", "user_prompt_submit", "stop"} {
		found := false
		for _, k := range rep.Trusted {
			found = found || strings.Contains(k, ":"+ev+":")
		}
		if !found {
			t.Errorf("cairn setup codex --trust recorded no trust for the %s hook: %q", ev, rep.Trusted)
		}
	}
}

// codexRun is one `codex exec` turn.
type codexRun struct {
	result
	Thread string
}

func (w *world) codex(t *testing.T, srv *Server, prompt string, extraEnv ...string) codexRun {
	t.Helper()
	r := run(w.repo, w.env(extraEnv...), w.agents["codex"], "exec", "--json",
		"-c", `model_providers.scripted.base_url="`+srv.URL()+`/v1"`, prompt)
	out := codexRun{result: r}
	for _, line := range strings.Split(r.stdout, "\n") {
		var ev struct {
			Type     string `json:"type"`
			ThreadID string `json:"thread_id"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "thread.started" {
			out.Thread = ev.ThreadID
		}
	}
	if r.err != nil || out.Thread == "" {
		t.Fatalf("codex exec: %s", r)
	}
	t.Logf("codex exec: thread %s, %s", out.Thread, r.took.Round(time.Millisecond))
	return out
}

// codexDay2 is the next day in Codex, same repository: the model must be
// shown day 1's rule and decision, labelled untrusted, in hook context
// (a developer message, never the user's own words), and cairn's MCP
// tool, offered in Codex's namespace tool mcp__cairn, must find the
// decision.
func (w *world) codexDay2(t *testing.T) {
	srv := startServer(t, Step{Tool: "mcp__cairn__memory_search", Args: json.RawMessage(`{"query":"router cache"}`),
		Text: "Memory says: a plain Map with a size cap; commits start with PAY-1432."})
	c := w.codex(t, srv, "Add a cache to the router.")
	first := firstTurn(t, srv)
	bs := requireMemory(t, first)
	logBlockSize(t, "codex", first, bs)
	requireTools(t, first, "mcp__cairn__")
	for _, key := range []string{ruleKey, decisionKey} {
		if role := roleOf(first, key); role != "developer" {
			t.Errorf("%q reached the model as %q; Codex hook context is a developer message", key, role)
		}
	}
	requireToolResult(t, srv, decisionKey)
	// Codex has no SessionEnd: its Stop hook imports the rollout.
	w.awaitSession(t, "codex", c.Thread, 10*time.Second)
	w.settle(t)
}

// codexChecks: `codex mcp list` reads the config (it does not connect;
// the tool call above is what proves the server answers) and exits 1 on
// a config it cannot parse.
func (w *world) codexChecks(t *testing.T) {
	r := run(w.repo, w.env(), w.agents["codex"], "mcp", "list", "--json")
	var list []struct {
		Name      string `json:"name"`
		Enabled   bool   `json:"enabled"`
		Transport struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"transport"`
	}
	if r.err != nil || json.Unmarshal([]byte(r.stdout), &list) != nil {
		t.Fatalf("codex mcp list --json: %s", r)
	}
	ok := false
	for _, s := range list {
		if s.Name == "cairn" {
			ok = s.Enabled && s.Transport.Type == "stdio" && s.Transport.Command == w.cairn && strings.Join(s.Transport.Args, " ") == "mcp"
		}
	}
	if !ok {
		t.Errorf("codex mcp list does not show cairn enabled as `%s mcp`: %s", w.cairn, r.stdout)
	}
}
