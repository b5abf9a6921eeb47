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

// claudeRun is one `claude -p` turn.
type claudeRun struct {
	result
	Session string
	Answer  string
	Debug   string // Claude Code's debug log of the run
}

// claude runs one non-interactive Claude Code turn against srv.
func (w *world) claude(t *testing.T, srv *Server, prompt string, extraEnv ...string) claudeRun {
	t.Helper()
	debug := filepath.Join(t.TempDir(), "claude-debug.txt")
	env := w.env(append([]string{"ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-ant-e2e-dummy"}, extraEnv...)...)
	r := run(w.repo, env, w.agents["claude"], "-p", prompt, "--output-format", "json",
		"--allowedTools", "mcp__cairn__memory_search", "--debug-file", debug)
	out := claudeRun{result: r, Debug: debug}
	var res struct {
		Result    string `json:"result"`
		SessionID string `json:"session_id"`
		IsError   bool   `json:"is_error"`
	}
	if r.err != nil || json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &res) != nil || res.IsError || res.SessionID == "" {
		t.Fatalf("claude -p: %s\nhooks in its debug log:\n%s", r, hookLines(debug))
	}
	out.Session, out.Answer = res.SessionID, res.Result
	t.Logf("claude -p: session %s, %s", out.Session, r.took.Round(time.Millisecond))
	return out
}

// hookLines are the debug log's lines about hooks, for a failure message.
func hookLines(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "Hook") || strings.Contains(l, "hook") || strings.Contains(l, "MCP") {
			out = append(out, clip(l, 400))
		}
	}
	return strings.Join(out, "\n")
}

// requireHook checks Claude Code's debug log for a hook of event running
// command; with done set, a line saying it finished that way.
func requireHook(t *testing.T, debug, event, command, done string) {
	t.Helper()
	b, err := os.ReadFile(debug)
	if err != nil {
		t.Fatalf("Claude Code's debug log: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, event) && strings.Contains(l, "["+command+"]") && strings.Contains(l, done) {
			return
		}
	}
	t.Errorf("Claude Code's debug log shows no %s hook [%s] %s; its hook lines:\n%s", event, command, done, hookLines(debug))
}

// setupClaude runs `cairn setup claude-code` and, for the setup-layout
// fault, breaks the file it wrote.
func (w *world) setupClaude(t *testing.T) {
	t.Helper()
	w.run(t, "setup", "claude-code", "--cairn", w.cairn)
	settings := filepath.Join(w.home, ".claude", "settings.json")
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatalf("cairn setup claude-code wrote no settings: %v", err)
	}
	if w.fault != "setup-layout" {
		return
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	hooks, _ := doc["hooks"].(map[string]any)
	for ev, v := range hooks {
		if groups, ok := v.([]any); ok && len(groups) > 0 {
			hooks[ev] = groups[0]
		}
	}
	b, _ = json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(settings, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// claudeDay1 is the first day: the user states a rule and a decision in
// Claude Code; cairn must capture the turn from Claude Code's own
// transcript when the session ends.
func (w *world) claudeDay1(t *testing.T) {
	srv := startServer(t, Step{Text: "Noted: commits as `PAY-1432: short summary`, and a plain Map with a size cap for the router cache."})
	c := w.claude(t, srv, ruleText+" "+ticketText+" "+decisionText)
	if !strings.Contains(c.Answer, "Noted") {
		t.Errorf("claude answered %q, not the scripted answer", c.Answer)
	}
	// cairn's MCP server is connected in the session: its tools are offered.
	requireTools(t, firstTurn(t, srv), "mcp__cairn__")
	// The transcript is Claude Code's own file; cairn reads it when the
	// session ends (SessionEnd hands it to a detached import).
	matches, _ := filepath.Glob(filepath.Join(w.home, ".claude", "projects", "*", c.Session+".jsonl"))
	if len(matches) != 1 {
		t.Fatalf("Claude Code wrote no transcript for session %s", c.Session)
	}
	s := w.awaitSession(t, "claude-code", c.Session, 10*time.Second)
	w.settle(t)
	if s.Parts < 2 {
		t.Errorf("session %s holds %d parts; want the request and the answer", c.Session, s.Parts)
	}
	// Claude Code ran cairn's hooks at the end of the turn and of the
	// session, as its debug log tells: Stop is async and, under -p, is
	// cancelled at teardown (it may or may not have finished), SessionEnd
	// must have finished with status 0; it hands the transcript to the
	// detached import that stored the session.
	requireHook(t, c.Debug, "Stop", hookCommand(w.cairn, "claude-code", "Stop"), "")
	requireHook(t, c.Debug, "SessionEnd", hookCommand(w.cairn, "claude-code", "SessionEnd"), "with status 0")
	// What is stored came from the transcript: the client's version and
	// the user's words are in it, and no hook payload carries the version.
	var shown struct {
		ClientVersion string `json:"client_version"`
		Turns         []struct {
			Request string `json:"request"`
			Outcome string `json:"outcome"`
		} `json:"turns"`
	}
	w.json(t, &shown, "show", c.Session)
	if v := w.version("claude"); shown.ClientVersion != v {
		t.Errorf("the stored session says Claude Code %q; the transcript says %q", shown.ClientVersion, v)
	}
	if len(shown.Turns) != 1 || !strings.Contains(shown.Turns[0].Request, decisionText) || !strings.Contains(shown.Turns[0].Outcome, "Noted") {
		t.Errorf("the stored session does not hold the day-1 turn: %+v", shown.Turns)
	}
	w.run(t, "maintain")
	var notes struct {
		Notes []struct {
			Object   string `json:"object"`
			Class    string `json:"class"`
			Tier     string `json:"tier"`
			Evidence []struct {
				Session string `json:"session"`
			} `json:"evidence"`
		} `json:"notes"`
	}
	w.json(t, &notes, "notes")
	for _, want := range []struct{ key, class string }{{ruleKey, "convention"}, {decisionKey, "decision"}} {
		found := false
		for _, n := range notes.Notes {
			if !strings.Contains(n.Object, want.key) {
				continue
			}
			found = true
			if n.Class != want.class || n.Tier != "asserted" {
				t.Errorf("note %q is %s/%s; want %s/asserted", n.Object, n.Class, n.Tier, want.class)
			}
			if len(n.Evidence) == 0 || n.Evidence[0].Session != c.Session {
				t.Errorf("note %q does not point at Claude Code session %s: %+v", n.Object, c.Session, n.Evidence)
			}
		}
		if !found {
			t.Errorf("no note holds %q after maintain; notes: %+v", want.key, notes.Notes)
		}
	}
	var facts struct {
		Current []struct {
			Predicate string `json:"predicate"`
			Object    string `json:"object"`
		} `json:"current"`
	}
	w.json(t, &facts, "fact", "query")
	found := false
	for _, f := range facts.Current {
		found = found || f.Object == "PAY-1432"
	}
	if !found {
		t.Errorf("no current fact holds the ticket PAY-1432: %+v", facts.Current)
	}
}

// claudeRecall is a later Claude Code session in the same repository: the
// block carries day 1, and cairn's MCP tool answers from Claude Code.
func (w *world) claudeRecall(t *testing.T) {
	srv := startServer(t, Step{Tool: "mcp__cairn__memory_search", Args: json.RawMessage(`{"query":"router cache"}`),
		Text: "Memory says: a plain Map with a size cap."})
	w.claude(t, srv, "Add a cache to the router.")
	first := firstTurn(t, srv)
	bs := requireMemory(t, first)
	logBlockSize(t, "claude-code", first, bs)
	requireTools(t, first, "mcp__cairn__")
	requireToolResult(t, srv, decisionKey)
	w.settle(t)
}

// ansi strips terminal colours from a client's text output.
var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// claudeChecks: `claude mcp list` connects to every server; `claude
// doctor` validates the hooks and MCP entries setup wrote. Both exit 0 on
// failure, so their text is read. doctor runs offline with the env above
// ("API connectivity - Not tested") and needs no TTY.
func (w *world) claudeChecks(t *testing.T) {
	r := run(w.repo, w.env(), w.agents["claude"], "mcp", "list")
	out := ansi.ReplaceAllString(r.stdout+r.stderr, "")
	if r.err != nil || !regexp.MustCompile(`(?m)^cairn: .* - ✔ Connected`).MatchString(out) {
		t.Errorf("claude mcp list does not show cairn connected: %s", r)
	}
	if strings.Contains(out, "[Warning]") {
		t.Errorf("claude mcp list has diagnostics: %s", out)
	}
	doctor := func(home string) string {
		env := w.env()
		for i, kv := range env {
			if strings.HasPrefix(kv, "HOME=") {
				env[i] = "HOME=" + home
			}
		}
		r := run(w.repo, env, w.agents["claude"], "doctor")
		if r.err != nil || !strings.Contains(r.stdout, "Claude Code doctor") {
			t.Fatalf("claude doctor: %s", r)
		}
		return ansi.ReplaceAllString(r.stdout, "")
	}
	if out := doctor(w.home); strings.Contains(out, "Invalid settings") {
		t.Errorf("claude doctor finds invalid settings in what cairn setup wrote:\n%s", out)
	}
	// The control: the same check on a copy with one hook event broken
	// must complain, or the check above proves nothing.
	bad := t.TempDir()
	if err := copyTree(filepath.Join(w.home, ".claude"), filepath.Join(bad, ".claude")); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(bad, ".claude", "settings.json")
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	doc["hooks"].(map[string]any)["NotAnEvent"] = []any{}
	b, _ = json.Marshal(doc)
	if err := os.WriteFile(settings, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if out := doctor(bad); !strings.Contains(out, "Invalid settings") || !strings.Contains(out, "NotAnEvent") {
		t.Errorf("claude doctor does not flag a broken settings.json, so it cannot vouch for a good one:\n%s", out)
	}
}
