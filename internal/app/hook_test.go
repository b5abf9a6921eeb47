package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hookVia runs a hook as `cairn hook` answering itself, or, resident, as
// setup installs it when cairn-hook sits beside cairn: the small client,
// handing the call to the resident process (started by the first hook).
func hookVia(t *testing.T, resident bool, home string, env []string, client, event string, payload map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(payload)
	cmd := cairnCmd(t, home, "hook", client, event)
	if resident {
		cmd = cairnCmd(t, home)
		cmd.Path, cmd.Args = hookBinary(t), []string{"cairn-hook", client, event}
		cmd.Env = append(cmd.Env, "CAIRN_HOOKS_RESIDENT=true")
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = bytes.NewReader(b)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("hook %s %s: %v\n%s", client, event, err, errOut.String())
	}
	if errOut.Len() > 0 {
		t.Errorf("hook %s %s wrote to stderr: %s", client, event, errOut.String())
	}
	return out.String()
}

func additionalContext(t *testing.T, out string) string {
	t.Helper()
	if strings.TrimSpace(out) == "" {
		return ""
	}
	var v struct {
		HookSpecificOutput struct {
			HookEventName     string
			AdditionalContext string
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("hook output is not the clients' JSON: %v\n%s", err, out)
	}
	return v.HookSpecificOutput.AdditionalContext
}

// gitRepo lays out a checkout with an origin, as cairn reads it.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shop")
	for name, body := range map[string]string{
		"HEAD":   "ref: refs/heads/main\n",
		"config": "[remote \"origin\"]\n\turl = git@github.com:acme/shop.git\n",
	} {
		p := filepath.Join(dir, ".git", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestHooksCarryMemoryAcrossClients: day 1 in Claude Code, day 2 in Codex,
// through the real binary with payloads shaped like the clients' own.
func TestHooksCarryMemoryAcrossClients(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	t.Run("cairn hook", func(t *testing.T) { hooksAcrossClients(t, false) })
	t.Run("cairn-hook and the resident process", func(t *testing.T) { hooksAcrossClients(t, true) })
}

func hooksAcrossClients(t *testing.T, resident bool) {
	home := t.TempDir()
	if resident {
		t.Cleanup(func() { stopResident(t, home) })
	}
	hookCall := func(t *testing.T, home string, env []string, client, event string, payload map[string]any) string {
		t.Helper()
		return hookVia(t, resident, home, env, client, event, payload)
	}
	repo := gitRepo(t)
	day1 := time.Now().Add(-26 * time.Hour)
	transcript := filepath.Join(t.TempDir(), "projects", "-shop", "cc-day1.jsonl")
	rule := "Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`. I'm on PAY-1432 this week."
	writeLines(t, transcript, claudeLines("cc-day1", repo, day1, []ccTurn{{User: rule, Answer: "Understood."}}))

	base := map[string]any{"session_id": "cc-day1", "transcript_path": transcript, "cwd": repo}
	with := func(m map[string]any, kv ...any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	if out := hookCall(t, home, nil, "claude-code", "SessionStart", with(base, "hook_event_name", "SessionStart", "source", "startup")); additionalContext(t, out) != "" {
		t.Fatalf("an empty memory produced a block: %s", out)
	}
	if resident {
		waitResident(t, home)
	}
	hookCall(t, home, nil, "claude-code", "UserPromptSubmit", with(base, "hook_event_name", "UserPromptSubmit", "prompt", rule))
	hookCall(t, home, nil, "claude-code", "Stop", with(base, "hook_event_name", "Stop", "last_assistant_message", "Understood.", "stop_hook_active", false))
	hookCall(t, home, nil, "claude-code", "SessionEnd", with(base, "hook_event_name", "SessionEnd", "reason", "prompt_input_exit"))
	// The day-1 candidates settled long ago; the next open promotes them.
	if out, err := cairnCmd(t, home, "maintain").CombinedOutput(); err != nil {
		t.Fatalf("maintain: %v %s", err, out)
	}

	codex := map[string]any{"session_id": "codex-day2", "transcript_path": nil, "cwd": repo, "hook_event_name": "SessionStart",
		"source": "startup", "model": "gpt-test", "permission_mode": "default"}
	block := additionalContext(t, hookCall(t, home, nil, "codex", "SessionStart", codex))
	for _, want := range []string{"PAY-1432", "Jira key", "<cairn-memory>", "untrusted"} {
		if !strings.Contains(block, want) {
			t.Errorf("day-2 Codex block lacks %q:\n%s", want, block)
		}
	}

	// A Private session on day 2: no block, nothing stored.
	before, _ := storeCounts(t, home)
	private := []string{"CAIRN_PRESET=private"}
	ptr := filepath.Join(t.TempDir(), "projects", "-shop", "cc-private.jsonl")
	writeLines(t, ptr, claudeLines("cc-private", repo, time.Now(), []ccTurn{{User: "From now on always use yarn.", Answer: "OK."}}))
	pbase := map[string]any{"session_id": "cc-private", "transcript_path": ptr, "cwd": repo}
	if out := hookCall(t, home, private, "claude-code", "SessionStart", with(pbase, "hook_event_name", "SessionStart", "source", "startup")); out != "" {
		t.Fatalf("a private session got a block: %s", out)
	}
	if out := hookCall(t, home, private, "claude-code", "UserPromptSubmit", with(pbase, "hook_event_name", "UserPromptSubmit", "prompt", "what is our commit format?")); out != "" {
		t.Fatalf("a private session got a recall block: %s", out)
	}
	hookCall(t, home, private, "claude-code", "Stop", with(pbase, "hook_event_name", "Stop", "last_assistant_message", "OK."))
	after, _ := storeCounts(t, home)
	for _, table := range []string{"sessions", "turns", "parts", "statements", "candidates"} {
		if after[table] != before[table] {
			t.Errorf("a private session stored rows in %s: %d → %d", table, before[table], after[table])
		}
	}
	if resident {
		// The first hook answered itself and started the process; the day-2
		// hooks were its to answer.
		if st := residentStatus(t, home); !st.Running || st.Served < 4 {
			t.Errorf("the resident process served too little: %+v", st)
		}
	}
}

func TestHookErrorsAreSilent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	home := quietHome(t)
	cmd := cairnCmd(t, home, "hook", "claude-code", "UserPromptSubmit")
	cmd.Stdin = strings.NewReader("{not json")
	out, err := cmd.Output()
	if err != nil || len(out) != 0 {
		t.Fatalf("a broken payload must exit 0 with no output: %v %q", err, out)
	}
	log, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
	if !strings.Contains(string(log), "payload") {
		t.Fatalf("the error was not logged: %q", log)
	}
}
