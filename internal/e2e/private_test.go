//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// privatePrompt would be recalled against (it names the router cache) and
// captured (a decision in the user's words) in any other session.
const privatePrompt = "For the router cache we'll use Redis instead, keep this between us. Add a cache to the router."

// private runs one session of client under CAIRN_PRESET=private: the model
// must see no block, and the store must gain nothing. Once the agent and
// the imports its hooks started are done, the session's own transcript
// is imported again by hand, which must be refused as private: that
// proves the import did run and chose to store nothing.
func (w *world) private(t *testing.T, client string) {
	w.settle(t) // nothing of an earlier session may land during this one
	before := w.rows(t)
	srv := startServer(t, Step{Text: "Private answer."})
	env := "CAIRN_PRESET=private"
	var source string
	switch client {
	case "claude-code":
		c := w.claude(t, srv, privatePrompt, env)
		matches, _ := filepath.Glob(filepath.Join(w.home, ".claude", "projects", "*", c.Session+".jsonl"))
		if len(matches) != 1 {
			t.Fatalf("Claude Code wrote no transcript for session %s", c.Session)
		}
		source = matches[0]
	case "codex":
		c := w.codex(t, srv, privatePrompt, env)
		matches, _ := filepath.Glob(filepath.Join(w.home, ".codex", "sessions", "*", "*", "*", "rollout-*"+c.Thread+".jsonl"))
		if len(matches) != 1 {
			t.Fatalf("Codex wrote no rollout for thread %s", c.Thread)
		}
		source = matches[0]
	case "opencode":
		c := w.opencode(t, srv, privatePrompt, env)
		source = "--opencode=" + c.Session
	}
	requireNoMemory(t, srv)
	t0 := time.Now()
	w.settle(t)
	t.Logf("detached cairn work done after %s", time.Since(t0).Round(time.Millisecond))
	after := w.rows(t)
	if d := diffRows(before, after, privateBookkeeping); d != "" {
		t.Errorf("a private %s session changed the store: %s\ncairn's log: %s", client, d, w.log())
	}
	if n := after["session_policies"] - before["session_policies"]; n != 1 {
		t.Errorf("the private %s session recorded %d session presets; want its own, once", client, n)
	}
	var rep struct {
		Totals struct {
			Sessions int `json:"sessions"`
		} `json:"totals"`
		Sources []struct {
			Private int    `json:"private_sessions"`
			Error   string `json:"error"`
		} `json:"sources"`
	}
	w.json(t, &rep, "import", "--force", source)
	private := 0
	for _, s := range rep.Sources {
		private += s.Private
		if s.Error != "" {
			t.Errorf("importing %s again: %s", source, s.Error)
		}
	}
	if private != 1 || rep.Totals.Sessions != 0 {
		t.Errorf("importing the private session again stored %d session(s) and refused %d as private; want 0 and 1", rep.Totals.Sessions, private)
	}
	if d := diffRows(after, w.rows(t), nil); d != "" {
		t.Errorf("importing a private %s session again changed the store: %s", client, d)
	}
}

// privateBookkeeping are the tables a private session may add one row
// to, none of which holds anything the user said or the agent did:
// session_policies records the preset itself (the detached import reads
// it there to refuse the session), and sources records the transcript
// file's path, size and time, so that an unchanged file is not read again.
var privateBookkeeping = map[string]int{"session_policies": 1, "sources": 1}

// diffRows lists the tables whose row count changed by more than allow
// lets them grow.
func diffRows(before, after, allow map[string]int) string {
	var out []string
	for k, a := range after {
		if b := before[k]; a != b && (a < b || a-b > allow[k]) {
			out = append(out, fmt.Sprintf("%s %d→%d", k, b, a))
		}
	}
	for k, b := range before {
		if _, ok := after[k]; !ok {
			out = append(out, fmt.Sprintf("%s %d→gone", k, b))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
