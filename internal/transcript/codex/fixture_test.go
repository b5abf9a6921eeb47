package codex

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// wantTurn is what a careful reading of a fixture says about one turn.
type wantTurn struct {
	key     string
	status  memory.TurnStatus
	flags   memory.Provenance
	request string // exact
	outcome string // prefix
}

// fixtureCases holds every fixture in testdata. The comments say how the
// turns were counted from the file itself.
var fixtureCases = []struct {
	file    string
	id      string
	version string
	model   string
	branch  string
	turns   []wantTurn
}{
	{
		// 1 turn: one task_started/turn_context pair (turn b2c3d4e5-…), one
		// user_message, closed by task_complete. The response_item user message
		// holding <environment_context> and the developer <permissions
		// instructions> message are injected context, not turns.
		file: "codemie_turn-1_SYNTHETIC.jsonl", id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
		version: "0.129.0", model: "o4-mini", branch: "main",
		turns: []wantTurn{{
			key: "b2c3d4e5-f600-7891-bcde-f12345678901", status: memory.TurnCompleted,
			request: "Hello, Codex! Please explain what you do.",
			outcome: "I am Codex, an AI coding assistant by OpenAI.",
		}},
	},
	{
		// 1 turn ("turn-1"): task_started, user_message "run a review", then
		// exec_command, spawn_agent and wait_agent calls, then task_complete.
		// The spawned explorer runs in its own rollout (child-thread-uuid);
		// this file has no assistant message, so the outcome is empty.
		file: "codemie_turn-spawn-skill_SYNTHETIC.jsonl", id: "spawn-test-uuid",
		version: "0.129.0", model: "gpt-5.4", branch: "main",
		turns: []wantTurn{{key: "turn-1", status: memory.TurnCompleted, request: "run a review"}},
	},
	{
		// 1 turn: a single task_started/task_complete pair (turn 019c8a4d-f931-…)
		// with one user_message. The 28 turn_context records all repeat that
		// turn id (one per model request) and the 118 function calls happen
		// inside it. The text was redacted upstream.
		file: "localpush_REDACTED_rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl",
		id:   "019c8a4d-8f45-7010-8b5d-7fad920aa6f9", version: "0.104.0-alpha.1", model: "gpt-5.3-codex", branch: "main",
		turns: []wantTurn{{
			key: "019c8a4d-f931-7323-8939-64390c636ca9", status: memory.TurnCompleted,
			request: "[REDACTED_MESSAGE len=115 sha=a83ebe6f]", outcome: "[REDACTED_TEXT len=15927 sha=093a1686]",
		}},
	},
	{
		// 1 turn: task_started (turn 019c8a70-ebe7-…) and one user_message; the
		// file ends on an exec_command call with no output and no
		// task_complete, so the turn was cut short. The outcome falls back to
		// the last (commentary) assistant message.
		file: "localpush_REDACTED_rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl",
		id:   "019c8a70-dda7-7f33-98ea-f30553347322", version: "0.104.0-alpha.1", model: "gpt-5.3-codex", branch: "main",
		turns: []wantTurn{{
			key: "019c8a70-ebe7-7e83-92b2-f77ddd49c5f9", status: memory.TurnCutShort,
			request: "[REDACTED_MESSAGE len=86 sha=2239bcba]", outcome: "[REDACTED_TEXT len=124 sha=7a220b7e]",
		}},
	},
	{
		// 1 turn (019c8bfe-ed40-…): one user_message, six turn_context repeats
		// of the same id, tools named mcp__cloud-associates__*, and a
		// task_complete.
		file: "localpush_REDACTED_rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl",
		id:   "019c8bfe-ec25-79e0-97d7-bda6a9c575ff", version: "0.104.0-alpha.1", model: "gpt-5.3-codex", branch: "main",
		turns: []wantTurn{{
			key: "019c8bfe-ed40-7a21-b57f-6447436c5881", status: memory.TurnCompleted, flags: memory.FromMCP,
			request: "[REDACTED_MESSAGE len=98 sha=c002ff99]", outcome: "[REDACTED_TEXT len=647 sha=10502814]",
		}},
	},
	{
		// 2 turns: two task_started/task_complete pairs, each with one
		// user_message ("show tools" and the compaction request). In the first
		// Codex parsed `sed -n … SKILL.md` as a file read; the second also ran
		// three web_search_call items.
		file: "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl",
		id:   "019e1625-789d-76c0-80ab-3724b5ddb799", version: "0.125.0", model: "gpt-5.5", branch: "feat/codex-agent-plugin",
		turns: []wantTurn{
			{
				key: "019e1625-d031-75e3-a85f-f143e43c0d84", status: memory.TurnCompleted, flags: memory.FromFiles,
				request: "show tools", outcome: "Available tool groups in this session:",
			},
			{
				key: "019e162b-0011-7240-abbc-f7b732e49728", status: memory.TurnCompleted,
				flags:   memory.FromFiles | memory.FromBrowser | memory.FromProviderTools,
				request: "let's update the defailt context compart to 90 in env var",
				outcome: "Implemented the default context compaction setting as `threshold: 0.9`",
			},
		},
	},
	{
		// 3 turns: this file has no task_started, task_complete or
		// turn_context records, so each of its 3 user_message events opens a
		// turn keyed by its timestamp and position, and each turn ends with a
		// final_answer message. The first message carries Codex Desktop's
		// "# Files mentioned by the user:" block; the third turn drives the
		// browser through the mcp__node_repl__ namespace.
		file: "rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl",
		id:   "019e1695-0522-7c83-8b39-0dd379793f80", version: "0.128.0-alpha.1",
		turns: []wantTurn{
			{
				key: "2026-05-11T10:29:40.167Z#1", status: memory.TurnCompleted, flags: memory.FromFiles,
				request: "analyze trascript and summarzie action items related to codemie and demo preapration, specifically focus on demo, User and Vadym",
				outcome: "I analyzed `/Users/Sample_User/Downloads/Sample Project Demo Prep.vtt`.",
			},
			{
				key: "2026-05-11T11:20:44.097Z#2", status: memory.TurnCompleted,
				request: "there is a need for nikita to draft demo scenario around governance, budgetings, analytics",
				outcome: "Yes. The transcript clearly assigns User",
			},
			{
				key: "2026-05-11T11:28:54.498Z#3", status: memory.TurnCompleted, flags: memory.FromMCP,
				request: "use app tools to go to Analytics and Project management tabs in codemie plaform onepned in google chrome to understand capaiblities. I can also paste scrrenshots with data that can be provided. there is a need to prepare focused max 8 min demo scenario showcasing platform and capabilities",
				outcome: "I couldn’t directly inspect your already-open Chrome tab",
			},
		},
	},
}

func parseFixture(t *testing.T, name string) transcript.Result {
	t.Helper()
	res, err := ParseFile(context.Background(), filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(fixtureCases) {
		t.Fatalf("%d fixtures in testdata, %d cases: every fixture needs a case", len(files), len(fixtureCases))
	}
	for _, c := range fixtureCases {
		t.Run(c.file, func(t *testing.T) {
			res := parseFixture(t, c.file)
			if len(res.Sessions) != 1 {
				t.Fatalf("sessions = %d, want 1", len(res.Sessions))
			}
			if res.Stats.SkippedTotal() != 0 || res.Stats.Pending {
				t.Errorf("stats = %+v, want nothing skipped or pending", res.Stats)
			}
			s := res.Sessions[0]
			if s.Provider != memory.ProviderCodex || s.ExternalID != c.id || s.ClientVersion != c.version ||
				s.Model != c.model || s.Branch != c.branch || s.Cwd == "" {
				t.Errorf("session = %s %s %s %s %s cwd=%q", s.Provider, s.ExternalID, s.ClientVersion, s.Model, s.Branch, s.Cwd)
			}
			if s.StartedAt.IsZero() || s.EndedAt.Before(s.StartedAt) {
				t.Errorf("session span %v..%v", s.StartedAt, s.EndedAt)
			}
			if len(s.Turns) != len(c.turns) {
				t.Fatalf("turns = %d, want %d", len(s.Turns), len(c.turns))
			}
			for i, w := range c.turns {
				got := s.Turns[i]
				if got.Seq != i || got.Key != w.key || got.Status != w.status || got.Flags != w.flags {
					t.Errorf("turn %d = seq %d key %s status %s flags %q; want key %s status %s flags %q",
						i, got.Seq, got.Key, got.Status, got.Flags, w.key, w.status, w.flags)
				}
				if got.Request != w.request {
					t.Errorf("turn %d request = %q, want %q", i, got.Request, w.request)
				}
				if !strings.HasPrefix(got.Outcome, w.outcome) || (w.outcome == "") != (got.Outcome == "") {
					t.Errorf("turn %d outcome = %.80q, want prefix %q", i, got.Outcome, w.outcome)
				}
				checkParts(t, got)
			}
		})
	}
}

// checkParts checks what must hold for every turn: parts numbered in order,
// every tool result named after its call, nothing injected stored.
func checkParts(t *testing.T, turn memory.Turn) {
	t.Helper()
	if len(turn.Parts) == 0 {
		t.Errorf("turn %s has no parts", turn.Key)
	}
	for i, p := range turn.Parts {
		if p.Seq != i {
			t.Errorf("turn %s part %d has seq %d", turn.Key, i, p.Seq)
		}
		if p.Kind == memory.KindToolResult && p.Tool == "" {
			t.Errorf("turn %s part %d: tool result with no tool name", turn.Key, i)
		}
		for _, injected := range []string{"# AGENTS.md instructions", "<environment_context>", "<permissions instructions>", "<skills_instructions>", "<plugins_instructions>"} {
			if strings.Contains(p.Text, injected) && p.Role != memory.RoleTool {
				t.Errorf("turn %s part %d (%s) holds injected context %q", turn.Key, i, p.Role, injected)
			}
		}
	}
}

// The AGENTS.md / environment context user message sits right before the
// first real prompt; it must never become a request.
func TestInjectedUserMessageIsNotARequest(t *testing.T) {
	for _, name := range []string{
		"rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl",
		"codemie_turn-1_SYNTHETIC.jsonl",
	} {
		res := parseFixture(t, name)
		for _, turn := range res.Sessions[0].Turns {
			for _, bad := range []string{"AGENTS.md", "<environment_context>", "<INSTRUCTIONS>"} {
				if strings.Contains(turn.Request, bad) {
					t.Errorf("%s turn %s: request holds %q", name, turn.Key, bad)
				}
			}
			for _, p := range turn.Parts {
				if p.Role == memory.RoleUser && strings.Contains(p.Text, "<environment_context>") {
					t.Errorf("%s turn %s: user part holds environment context", name, turn.Key)
				}
			}
		}
	}
}

// Tool input must reach redaction as decoded text with real newlines.
func TestFixtureToolInputIsDecoded(t *testing.T) {
	res := parseFixture(t, "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl")
	var calls, patches int
	for _, turn := range res.Sessions[0].Turns {
		for _, p := range turn.Parts {
			if p.Kind != memory.KindToolCall {
				continue
			}
			calls++
			if strings.HasPrefix(strings.TrimSpace(p.Text), "{") || strings.Contains(p.Text, `\n`) && p.Tool == "apply_patch" {
				t.Errorf("%s input still looks like JSON: %.80q", p.Tool, p.Text)
			}
			switch p.Tool {
			case "exec_command":
				if !strings.HasPrefix(p.Text, "cmd: ") {
					t.Errorf("exec_command input = %.60q, want a cmd: line", p.Text)
				}
			case "apply_patch":
				patches++
				if !strings.HasPrefix(p.Text, "*** Begin Patch\n*** Update File: ") {
					t.Errorf("apply_patch input = %.60q, want the raw patch", p.Text)
				}
			}
		}
	}
	// 99 function calls, 3 apply_patch custom tool calls and 3 web searches.
	if calls != 105 || patches != 3 {
		t.Errorf("calls = %d, patches = %d; want 105 and 3", calls, patches)
	}
}
