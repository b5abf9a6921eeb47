package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/mcptools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEndToEnd builds cairn, seeds a store with its own commands, and
// drives `cairn mcp` as a client would: over stdio, with the SDK's client.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the cairn binary")
	}
	bin := buildCairn(t)
	home := t.TempDir()
	proj, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "CAIRN_HOME="+home, "NO_COLOR=1")
	cairn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = proj, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("cairn %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	cairn("remember", "always run the tests before committing", "--category", "testing", "--cwd", proj)
	cairn("fact", "assert", "production", "deploy_target", "Heroku", "--valid-at", "2026-04-01", "--class", "environment", "--cwd", proj)
	cairn("fact", "assert", "production", "deploy_target", "Render, Oregon", "--class", "environment", "--cwd", proj)
	past := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	cairn("import", transcript(t, proj, "e2e-earlier", past, "the flaky checkout test fails because the payment sandbox times out; raise the timeout to 30s",
		"Raised the payment sandbox timeout to 30s in checkout_test.go.", "end_turn"))

	cmd := exec.Command(bin, "mcp")
	cmd.Dir = proj
	cmd.Env = append(env, "CLAUDE_PROJECT_DIR="+proj)
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr)
	}
	// Each call waits for its reply, so stdin stays open until then; Close
	// ends the server by closing it.
	defer func() {
		if err := cs.Close(); err != nil {
			t.Errorf("server did not exit cleanly: %v\nstderr: %s", err, stderr)
		}
	}()
	e := &e2e{t: t, cs: cs}

	t.Run("tools", func(t *testing.T) {
		if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "<cairn-cite>") {
			t.Errorf("no citing rule in the instructions: %q", ins)
		}
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			s, _ := tool.InputSchema.(map[string]any)
			if s["type"] != "object" || s["properties"] == nil {
				t.Errorf("%s has no input schema: %v", tool.Name, tool.InputSchema)
			}
		}
		sort.Strings(names)
		want := []string{mcptools.ToolForget, mcptools.ToolList, mcptools.ToolRead, mcptools.ToolRemember, mcptools.ToolSearch, mcptools.ToolTimeline}
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("tools %v, want %v", names, want)
		}
	})

	var fact, note, part, episode string
	t.Run("search", func(t *testing.T) {
		out := e.ok(mcptools.ToolSearch, map[string]any{"query": "deploy target"})
		fact = e.hit(out, "Render, Oregon")
		out = e.ok(mcptools.ToolSearch, map[string]any{"query": "payment sandbox timeout", "layers": []string{"L0"}})
		part = e.hit(out, "Raised the payment sandbox timeout")
		out = e.ok(mcptools.ToolSearch, map[string]any{"query": "payment sandbox timeout", "layers": []string{"L2"}, "scope": "project"})
		episode = e.hit(out, "payment sandbox")
		out = e.ok(mcptools.ToolSearch, map[string]any{"query": "tests before committing", "scope": "everywhere", "limit": 3})
		note = e.hit(out, "always run the tests")
	})
	if t.Failed() {
		return
	}

	t.Run("read", func(t *testing.T) {
		out := e.ok(mcptools.ToolRead, map[string]any{"ref": fact})
		st := out["statement"].(map[string]any)
		if st["object"] != "Render, Oregon" || st["tier"] != "asserted" || st["valid_at"] == nil || st["created_at"] == nil {
			t.Errorf("fact read: %v", st)
		}
		out = e.ok(mcptools.ToolRead, map[string]any{"ref": part})
		p := out["part"].(map[string]any)
		if p["session"] != "e2e-earlier" || p["turn"] == nil || !strings.Contains(p["text"].(string), "30s") {
			t.Errorf("part read: %v", p)
		}
		out = e.ok(mcptools.ToolRead, map[string]any{"ref": episode})
		if ep := out["episode"].(map[string]any); !strings.Contains(ep["outcome"].(string), "checkout_test.go") {
			t.Errorf("episode read: %v", ep)
		}
	})

	t.Run("list and timeline", func(t *testing.T) {
		out := e.ok(mcptools.ToolList, nil)
		if !strings.Contains(e.text, note) || !strings.Contains(e.text, fact) || !strings.Contains(e.text, episode) {
			t.Errorf("list lacks %s, %s or %s:\n%s", note, fact, episode, e.text)
		}
		if out["recent_changes"] == nil {
			t.Errorf("list shows no change for the replaced deploy target: %v", out)
		}
		out = e.ok(mcptools.ToolTimeline, map[string]any{"subject": "production", "predicate": "deploy_target"})
		rows := out["rows"].([]any)
		if len(rows) != 2 {
			t.Fatalf("timeline rows %v", rows)
		}
		first, last := rows[0].(map[string]any), rows[1].(map[string]any)
		if first["state"] != "superseded" || first["invalid_at"] == nil || first["expired_at"] == nil || last["ref"] != fact || last["state"] != "current" {
			t.Errorf("timeline %v", rows)
		}
	})

	t.Run("remember settles with its turn", func(t *testing.T) {
		out := e.ok(mcptools.ToolRemember, map[string]any{"text": "Use pnpm, not npm, in this repo.", "tier": "asserted", "class": "convention"})
		if out["status"] != "pending" || out["tier"] != "inferred" || !strings.Contains(e.text, "Pending until the turn ends") {
			t.Errorf("remember: %v %q", out, e.text)
		}
		if e.ok(mcptools.ToolList, map[string]any{"kind": "notes"}); strings.Contains(e.text, "pnpm") {
			t.Errorf("the write took effect before its turn ended:\n%s", e.text)
		}
		now := time.Now().UTC()
		cairn("import", transcript(t, proj, "e2e-now", now.Add(-10*time.Second), "we use pnpm here, not npm", "Noted: pnpm.", "end_turn"))
		if e.ok(mcptools.ToolList, map[string]any{"kind": "notes"}); !strings.Contains(e.text, "pnpm") || !strings.Contains(e.text, "inferred") {
			t.Errorf("the write did not take effect when its turn completed:\n%s", e.text)
		}

		e.ok(mcptools.ToolRemember, map[string]any{"text": "Deploy on Fridays.", "tier": "observed"})
		cairn("import", transcript(t, proj, "e2e-refused", time.Now().UTC().Add(-5*time.Second), "remember we deploy on Fridays", "I can't help with that.", "refusal"))
		if e.ok(mcptools.ToolList, map[string]any{"kind": "notes"}); strings.Contains(e.text, "Fridays") {
			t.Errorf("the write of a refused turn took effect:\n%s", e.text)
		}
	})

	t.Run("forget", func(t *testing.T) {
		e.ok(mcptools.ToolForget, map[string]any{"ref": note})
		if !strings.Contains(e.text, "Nothing was deleted") {
			t.Errorf("forget: %q", e.text)
		}
		if e.ok(mcptools.ToolList, map[string]any{"kind": "notes"}); strings.Contains(e.text, "always run the tests") {
			t.Errorf("a forgotten note is still listed:\n%s", e.text)
		}
		e.fails(mcptools.ToolRead, map[string]any{"ref": note}, "forgotten")
		if got := cairn("notes", "--all"); !strings.Contains(got, "always run the tests") {
			t.Errorf("forget deleted the row instead of deactivating it:\n%s", got)
		}
	})

	t.Run("failing calls", func(t *testing.T) {
		e.fails(mcptools.ToolRead, map[string]any{"ref": "x12"}, "n12 (note), f3 (fact)")
		e.fails(mcptools.ToolRead, map[string]any{"ref": "f999999"}, "not found")
		e.fails(mcptools.ToolForget, map[string]any{"ref": part}, "raw transcript")
		e.fails(mcptools.ToolForget, map[string]any{"ref": "l1"}, "profile")
		e.fails(mcptools.ToolSearch, map[string]any{"query": ""}, "query is empty")
		e.fails(mcptools.ToolSearch, map[string]any{"query": "deploy", "scope": "galaxy"}, "scope")
		e.fails(mcptools.ToolRemember, map[string]any{"text": "my token is ghp_" + strings.Repeat("a1B2", 9), "tier": "observed"}, "credential")
		e.fails(mcptools.ToolTimeline, map[string]any{"since": "someday"}, "cannot read since")
	})
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("server stderr: %s", stderr)
	}
}

// e2e calls tools and keeps the last result's text.
type e2e struct {
	t    *testing.T
	cs   *mcp.ClientSession
	text string
}

func (e *e2e) call(name string, args map[string]any) *mcp.CallToolResult {
	e.t.Helper()
	res, err := e.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	e.text = b.String()
	return res
}

// ok calls a tool that must succeed and returns its structured content.
func (e *e2e) ok(name string, args map[string]any) map[string]any {
	e.t.Helper()
	res := e.call(name, args)
	if res.IsError {
		e.t.Fatalf("%s %v failed: %s", name, args, e.text)
	}
	var out map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil {
		e.t.Fatalf("%s: structured content %s: %v", name, raw, err)
	}
	return out
}

// fails calls a tool that must fail with a message holding want.
func (e *e2e) fails(name string, args map[string]any, want string) {
	e.t.Helper()
	if res := e.call(name, args); !res.IsError || !strings.Contains(e.text, want) {
		e.t.Errorf("%s %v: isError=%v %q, want an error with %q", name, args, res.IsError, e.text, want)
	}
}

// hit returns the ref of the first search hit whose text holds want.
func (e *e2e) hit(out map[string]any, want string) string {
	e.t.Helper()
	hits, _ := out["hits"].([]any)
	for _, h := range hits {
		m := h.(map[string]any)
		if strings.Contains(m["text"].(string), want) {
			return m["ref"].(string)
		}
	}
	e.t.Errorf("no hit with %q in %s", want, e.text)
	return ""
}

// buildCairn builds the binary from the module root into a temp dir.
func buildCairn(t *testing.T) string {
	t.Helper()
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "cairn")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/cairn")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// transcript writes a one-turn Claude Code session in dir and returns its
// path.
func transcript(t *testing.T, cwd, session string, at time.Time, ask, answer, stop string) string {
	t.Helper()
	lines := []map[string]any{
		{"type": "user", "uuid": session + "-u", "parentUuid": nil, "sessionId": session, "cwd": cwd,
			"timestamp": at.Format(time.RFC3339Nano), "message": map[string]any{"role": "user", "content": ask}},
		{"type": "assistant", "uuid": session + "-a", "parentUuid": session + "-u", "sessionId": session, "cwd": cwd,
			"timestamp": at.Add(5 * time.Second).Format(time.RFC3339Nano),
			"message": map[string]any{"id": session + "-m", "role": "assistant", "model": "claude",
				"content": []any{map[string]any{"type": "text", "text": answer}}, "stop_reason": stop}},
	}
	var b strings.Builder
	for _, l := range lines {
		raw, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\n", raw)
	}
	path := filepath.Join(t.TempDir(), session+".jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
