package demo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Scene is a scratch directory holding a repository and the transcripts
// of work done in it.
type Scene struct {
	Root       string // the scratch directory
	Repo       string // a checkout with a .git directory and an origin
	ClaudeDir  string // a Claude Code projects tree
	CodexDir   string // a CODEX_HOME
	Day1, Day2 time.Time
}

// Day1Prompts are what the user says in Claude Code on day one.
var Day1Prompts = []string{
	"Add an .nvmrc file that pins Node 20 and commit it.",
	"Our commits start with the Jira key of the ticket I'm on, like `PAY-1432: short summary`. I'm on PAY-1432 this week. Amend that commit.",
	"Separate thing, for the router-cache branch: we'll use a plain Map with a size cap, not lru-cache, because we don't want a new dependency in core. No code yet, just agree.",
	"我们决定统一用 pnpm，不要用 npm。",
}

// Day2Prompt is what the user asks Codex the next morning.
const Day2Prompt = "Morning. Why did we pick a Map over lru-cache for the router cache, and which ticket am I on?"

// fakeToken looks like a GitHub token so the demo can show redaction; it
// is assembled here so no scanner mistakes this file for a leak.
var fakeToken = "ghp_" + strings.Repeat("D3m0", 9)

// Build writes the scene under root.
func Build(root string) (*Scene, error) {
	s := &Scene{
		Root:      root,
		Repo:      filepath.Join(root, "shop"),
		ClaudeDir: filepath.Join(root, "claude", "projects"),
		CodexDir:  filepath.Join(root, "codex"),
		// Yesterday and this morning, whenever the demo runs: the day-1
		// candidates have settled, as they would have by day 2.
		Day1: time.Now().UTC().Add(-24 * time.Hour).Truncate(time.Minute),
		Day2: time.Now().UTC().Add(-10 * time.Minute).Truncate(time.Minute),
	}
	if err := s.writeRepo(); err != nil {
		return nil, err
	}
	if err := s.writeClaude(); err != nil {
		return nil, err
	}
	if err := s.writeCodex(); err != nil {
		return nil, err
	}
	return s, nil
}

// writeRepo lays out the minimum git needs to call a directory a
// checkout with an origin: cairn reads these files, not the git binary.
func (s *Scene) writeRepo() error {
	git := filepath.Join(s.Repo, ".git")
	files := map[string]string{
		"HEAD":   "ref: refs/heads/main\n",
		"config": "[core]\n\trepositoryformatversion = 0\n[remote \"origin\"]\n\turl = git@github.com:acme/shop.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
	}
	for name, body := range files {
		if err := writeFile(filepath.Join(git, name), body); err != nil {
			return err
		}
	}
	return os.MkdirAll(filepath.Join(git, "objects"), 0o755)
}

func (s *Scene) writeClaude() error {
	const session = "7d1c2a9e-5b44-4c3e-9a51-0f2d6c1e8b10"
	answers := []string{
		"Added `.nvmrc` with `20` and committed it as `add .nvmrc to pin Node 20`.",
		"Amended: the commit is now `PAY-1432: add .nvmrc to pin Node 20`.",
		"Agreed: a plain `Map` with a size cap for the router cache, no lru-cache dependency in core.",
		"好的，以后统一用 pnpm，不再用 npm。",
	}
	var lines []string
	var parent any
	n := 0
	add := func(m map[string]any) {
		n++
		id := fmt.Sprintf("%s-%03d", session[:8], n)
		m["uuid"], m["parentUuid"], m["sessionId"], m["cwd"], m["version"], m["gitBranch"] = id, parent, session, s.Repo, "2.1.38", "main"
		m["timestamp"] = s.Day1.Add(time.Duration(n) * 20 * time.Second).Format(time.RFC3339Nano)
		b, _ := json.Marshal(m)
		lines = append(lines, string(b))
		parent = id
	}
	for i, p := range Day1Prompts {
		add(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": p}})
		if i == 0 {
			add(map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_demo_0a", "role": "assistant", "model": "claude-demo",
				"content": []any{map[string]any{"type": "tool_use", "id": "toolu_demo", "name": "Bash",
					"input": map[string]any{"command": "echo 20 > .nvmrc && git add .nvmrc && git commit -m 'add .nvmrc to pin Node 20'"}}},
				"stop_reason": "tool_use"}})
			add(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{map[string]any{
				"type": "tool_result", "tool_use_id": "toolu_demo",
				"content": "[main 7e2964f] add .nvmrc to pin Node 20\n 1 file changed, 1 insertion(+)\nwarning: GITHUB_TOKEN=" + fakeToken + " is set in this shell"}}}})
		}
		add(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprintf("msg_demo_%d", i), "role": "assistant", "model": "claude-demo",
			"content": []any{map[string]any{"type": "text", "text": answers[i]}}, "stop_reason": "end_turn"}})
	}
	dir := filepath.Join(s.ClaudeDir, encodeCwd(s.Repo))
	return writeFile(filepath.Join(dir, session+".jsonl"), strings.Join(lines, "\n")+"\n")
}

func (s *Scene) writeCodex() error {
	const thread = "019a8f3e-2c41-7b20-9d11-5e6f7a8b9c0d"
	const turn = "019a8f3e-2c41-7b20-9d11-5e6f7a8b9c0e"
	t := s.Day2
	ts := func(sec int) string {
		return t.Add(time.Duration(sec) * time.Second).Format("2006-01-02T15:04:05.000Z")
	}
	answer := "We chose a plain `Map` with a size cap to avoid a new dependency in core. You're on PAY-1432."
	recs := []map[string]any{
		{"timestamp": ts(0), "type": "session_meta", "payload": map[string]any{"id": thread, "timestamp": ts(0), "cwd": s.Repo,
			"originator": "codex-tui", "cli_version": "0.171.0", "source": "cli", "model_provider": "openai",
			"git": map[string]any{"branch": "main", "repository_url": "git@github.com:acme/shop.git"}}},
		{"timestamp": ts(1), "type": "event_msg", "payload": map[string]any{"type": "task_started", "turn_id": turn}},
		{"timestamp": ts(1), "type": "turn_context", "payload": map[string]any{"turn_id": turn, "cwd": s.Repo, "model": "gpt-demo"}},
		{"timestamp": ts(2), "type": "event_msg", "payload": map[string]any{"type": "user_message", "message": Day2Prompt}},
		{"timestamp": ts(5), "type": "response_item", "payload": map[string]any{"type": "message", "role": "assistant", "phase": "final_answer",
			"content": []any{map[string]any{"type": "output_text", "text": answer}}}},
		{"timestamp": ts(5), "type": "event_msg", "payload": map[string]any{"type": "task_complete", "turn_id": turn, "last_agent_message": answer}},
	}
	var lines []string
	for _, r := range recs {
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	name := "rollout-" + t.Format("2006-01-02T15-04-05") + "-" + thread + ".jsonl"
	return writeFile(filepath.Join(s.CodexDir, "sessions", t.Format("2006/01/02"), name), strings.Join(lines, "\n")+"\n")
}

// encodeCwd names a Claude Code project directory the way the client
// does: every non-alphanumeric character becomes '-'.
func encodeCwd(p string) string {
	b := []byte(p)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

func writeFile(path, body string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(body), 0o644)
}

// FakeToken is the credential planted in the day-1 tool output, so tests
// can check it never reaches the store.
func FakeToken() string { return fakeToken }
