package claudecode

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

type wantTurn struct {
	request string // prefix
	outcome string // prefix; "" means empty
	status  memory.TurnStatus
	parts   int
	flags   memory.Provenance
}

type wantSession struct {
	id     string
	parent string
	turns  []wantTurn
}

// The counts below come from reading each file line by line (see
// testdata/SOURCES.md for where they come from).
var fixtureCases = []struct {
	path     string
	files    int
	lines    int
	sessions []wantSession
}{
	{
		// 15 lines: snapshot, 2 hook progress, the prompt (l4), one
		// assistant message pYiiQa over 6 lines (l5-8, l10: blank text,
		// thinking, text, Bash, Glob) with a progress line (l9) between,
		// two rejected tool results (l11 hangs off l8, a side branch that
		// is kept), "[Request interrupted by user for tool use]" (l13) and
		// a /model local command as two system lines. One turn, cut short
		// by the interruption; parts: prompt, text, 2 calls, 2 results.
		path:  "spotter/short.jsonl",
		files: 1, lines: 15,
		sessions: []wantSession{{id: "55604662-cf2a-4331-851a-ec234028f8ca", turns: []wantTurn{
			{"mix phx.server doesnt seem to start", "Let me check the project structure", memory.TurnCutShort, 6, 0},
		}}},
	},
	{
		// 39 lines. Turn 1 (l4 "start phoenix in background"): Bash call,
		// result, text + Bash call in one message, result, then
		// "[Request interrupted by user]" (l18): cut short, 6 parts.
		// l20-24 are the /mcp local command (isMeta caveat, command echo,
		// stdout echo, two system lines): unanswered, so no turn.
		// Turn 2 (l26): WebSearch + Glob (l30 is a side branch, kept),
		// both results, Read + result, WebFetch + result, interrupted
		// (l39); the last message has no text, so no outcome. 9 parts.
		path:  "spotter/tool_heavy.jsonl",
		files: 1, lines: 39,
		sessions: []wantSession{{id: "d6e0bada-1959-4eec-a9d2-0bfade768d8f", turns: []wantTurn{
			{"start phoenix in background", "Phoenix server is starting in the background.", memory.TurnCutShort, 6, 0},
			{"scrolling back in xterm.js", "", memory.TurnCutShort, 9,
				memory.FromFiles | memory.FromBrowser | memory.FromProviderTools},
		}}},
	},
	{
		// 96 lines. Turn 1 is the skill command /handgemacht:create-beads
		// with args (l4); its expansion (l5) is isMeta. The model answers
		// with web research, Read, AskUserQuestion, a Task subagent (whose
		// transcript is not in the fixture), Write, ExitPlanMode; the user
		// approves and interrupts (l69): cut short, and the last message
		// (ExitPlanMode) has no text. 31 parts: the request, 6 texts, 12
		// calls (WebFetch, 5 WebSearch, Glob, Read, AskUserQuestion, Task,
		// Write, ExitPlanMode) and their 12 results.
		// Turn 2 (l71 "create the beads"): 4 Bash calls and results, the
		// final table (l92), then a Stop hook summary: completed, 10 parts.
		path:  "spotter/subagent.jsonl",
		files: 1, lines: 96,
		sessions: []wantSession{{id: "491e126e-1e71-469c-ade2-fcc8af567c74", turns: []wantTurn{
			{"/handgemacht:create-beads websearch to learn how to fastest setup credo", "", memory.TurnCutShort, 31,
				memory.FromFiles | memory.FromBrowser | memory.FromProviderTools},
			{"create the beads", "## Beads Created", memory.TurnCompleted, 10, 0},
		}}},
	},
	{
		// 13 lines cut from a longer file: hook progress whose parent is
		// not in the excerpt, an Edit result (l6), the compact boundary
		// (l7, logicalParentUuid → l6), the compaction summary (l8), more
		// progress, and an assistant message with only blank text and
		// thinking. No prompt is in the excerpt, so its content forms one
		// turn with no request: the result and the summary. The model had
		// not answered when the excerpt ends: cut short. The compaction
		// agent beside it (subagents/agent-acompact-*) is not read.
		path:  "spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
		files: 1, lines: 13,
		sessions: []wantSession{{id: "258c7280-ae70-4798-800f-63464d01a85d", turns: []wantTurn{
			{"", "", memory.TurnCutShort, 2, 0},
		}}},
	},
	{
		// The compaction agent's own transcript read alone: two isMeta
		// hook-context lines, the harness's summary prompt, the summary.
		// A harness side-agent: no session, nothing skipped.
		path:  "spotter/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-acompact-fffbd0.jsonl",
		files: 1, lines: 4,
	},
	{
		// 40 lines, an orphan 2.1 subagent. One prompt from the parent
		// (l1), then message uinNKs (text + 6 WebSearch calls on l2-8,
		// the last four a side branch off l4), 6 results, message fsVEw3
		// (text + 6 WebFetch calls, interleaved with their results), and
		// the final answer (l40): completed, 1+1+6+6+1+6+6+1 = 28 parts.
		path:  "spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl",
		files: 1, lines: 40,
		sessions: []wantSession{{
			id:     "ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-aac57f5",
			parent: "ae4a77f8-aedd-4bc1-888f-c94edc91af04",
			turns: []wantTurn{
				{"Search hex.pm for the latest versions", "Perfect! I now have all the version information needed.",
					memory.TurnCompleted, 28, memory.FromBrowser | memory.FromProviderTools},
			},
		}},
	},
	{
		// 25 lines, Claude Code 2.0.64, and its sibling agent-36541525.jsonl
		// (2 lines, same sessionId): a "Warmup" sidechain, dropped.
		// Turn 1: text + 3 Write calls (one message over 4 lines), 3
		// results, "Done! I've created three files" (9 parts). Turn 2:
		// Read + result, Edit + result, answer (6). Turn 3: Bash + result,
		// answer with stop_reason end_turn (4). All completed.
		path:  "codemie/-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl",
		files: 2, lines: 27,
		sessions: []wantSession{{id: "4c2ddfdc-b619-4525-8d03-1950fb1b0257", turns: []wantTurn{
			{"create hello.py, md and js", "Done! I've created three files:", memory.TurnCompleted, 9, 0},
			{"update py with one liner comment", "Done! I've added a one-liner comment", memory.TurnCompleted, 6, memory.FromFiles},
			{"delete js", "Done! I've deleted hello.js.", memory.TurnCompleted, 4, 0},
		}}},
	},
	{
		// The 2.0 sibling read alone: only the Warmup turn, so no session.
		path:  "codemie/-tmp-private/agent-36541525.jsonl",
		files: 1, lines: 2,
	},
	{
		// 20 lines: 15 summary records (none names a line of this file),
		// a snapshot, "show tools", a thinking line and the text answer of
		// one message, a Stop hook summary. One completed turn, no title.
		path:  "codemie/incremental-simple/turn-1.jsonl",
		files: 1, lines: 20,
		sessions: []wantSession{{id: "3fb74381-1bf4-475e-8c6f-442d872b1bcf", turns: []wantTurn{
			{"show tools", "# Available Tools", memory.TurnCompleted, 2, 0},
		}}},
	},
	{
		// 8 synthetic lines without parentUuid. Turn 1: text + Write,
		// result, Bash, result, and no answer after it before the next
		// prompt: cut short, 6 parts. Turn 2: one text answer, completed.
		path:  "simonw/sample_session.jsonl",
		files: 1, lines: 8,
		sessions: []wantSession{{id: "test-session-id", turns: []wantTurn{
			{"Create a hello world function", "", memory.TurnCutShort, 6, 0},
			{"Now add a goodbye function", "Done! The hello function is ready.", memory.TurnCompleted, 2, 0},
		}}},
	},
}

func TestFixtures(t *testing.T) {
	for _, c := range fixtureCases {
		t.Run(c.path, func(t *testing.T) {
			res, err := ParseFile(context.Background(), filepath.Join("testdata", c.path))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Files) != c.files || res.Stats.Lines != c.lines {
				t.Errorf("files %d lines %d, want %d %d", len(res.Files), res.Stats.Lines, c.files, c.lines)
			}
			if n := res.Stats.SkippedTotal(); n != 0 {
				t.Errorf("skipped %v, want none", res.Stats.Skipped)
			}
			if res.Stats.Pending {
				t.Error("pending, want complete")
			}
			if len(res.Sessions) != len(c.sessions) {
				t.Fatalf("got %d sessions, want %d", len(res.Sessions), len(c.sessions))
			}
			for i, ws := range c.sessions {
				s := res.Sessions[i]
				if s.ExternalID != ws.id || s.ParentExternalID != ws.parent || s.Subagent != (ws.parent != "") {
					t.Errorf("session %q parent %q subagent %v, want %q %q", s.ExternalID, s.ParentExternalID, s.Subagent, ws.id, ws.parent)
				}
				if s.Provider != memory.ProviderClaudeCode || s.Cwd == "" || s.StartedAt.IsZero() || s.EndedAt.Before(s.StartedAt) {
					t.Errorf("session envelope: %+v", s)
				}
				if len(s.Turns) != len(ws.turns) {
					t.Fatalf("got %d turns %q, want %d", len(s.Turns), requests(s), len(ws.turns))
				}
				for j, wt := range ws.turns {
					checkTurn(t, s.Turns[j], j, wt)
				}
			}
		})
	}
}

func checkTurn(t *testing.T, got memory.Turn, seq int, want wantTurn) {
	t.Helper()
	if got.Seq != seq || got.Key == "" {
		t.Errorf("turn %d: seq %d key %q", seq, got.Seq, got.Key)
	}
	if !strings.HasPrefix(got.Request, want.request) || (want.request == "") != (got.Request == "") {
		t.Errorf("turn %d request %q, want prefix %q", seq, got.Request, want.request)
	}
	if !strings.HasPrefix(got.Outcome, want.outcome) || (want.outcome == "") != (got.Outcome == "") {
		t.Errorf("turn %d outcome %q, want prefix %q", seq, got.Outcome, want.outcome)
	}
	if got.Status != want.status {
		t.Errorf("turn %d status %s, want %s", seq, got.Status, want.status)
	}
	if len(got.Parts) != want.parts {
		t.Errorf("turn %d has %d parts, want %d", seq, len(got.Parts), want.parts)
	}
	if got.Flags != want.flags {
		t.Errorf("turn %d flags %q, want %q", seq, got.Flags, want.flags)
	}
	for i, p := range got.Parts {
		if p.Seq != i || p.Time.IsZero() {
			t.Errorf("turn %d part %d: seq %d time %v", seq, i, p.Seq, p.Time)
		}
	}
}

func TestFixturesParseTwiceTheSame(t *testing.T) {
	for _, c := range fixtureCases {
		path := filepath.Join("testdata", c.path)
		a, err := ParseFile(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseFile(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two parses differ", c.path)
		}
	}
}

// Details the counts above do not show.
func TestFixtureDetails(t *testing.T) {
	res, err := ParseFile(context.Background(), "testdata/spotter/short.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	turn := res.Sessions[0].Turns[0]
	// Both rejected results survive, including the one on a side branch.
	for _, i := range []int{4, 5} {
		p := turn.Parts[i]
		if p.Kind != memory.KindToolResult || !p.IsError || !strings.HasPrefix(p.Text, "The user doesn't want to proceed") {
			t.Errorf("part %d: %+v", i, p)
		}
	}
	if turn.Parts[4].Tool != "Bash" || turn.Parts[5].Tool != "Glob" {
		t.Errorf("result tools %q %q", turn.Parts[4].Tool, turn.Parts[5].Tool)
	}
	if got := turn.Parts[2].Text; got != "command: mix phx.server 2>&1 | head -80\ntimeout: 30000" {
		t.Errorf("rendered input %q", got)
	}

	res, err = ParseFile(context.Background(), "testdata/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Sessions[0].Turns[0].Parts[1]
	if sum.Kind != memory.KindSummary || !strings.HasPrefix(sum.Text, "This session is being continued") {
		t.Errorf("compaction summary part: %+v", sum)
	}

	res, err = ParseFile(context.Background(), "testdata/codemie/-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s := res.Sessions[0]
	if s.Branch != "analytics-v2" || s.ClientVersion != "2.0.64" || s.Model != "claude-sonnet-4-5-20250929" || s.Cwd != "/tmp/private" {
		t.Errorf("session fields: %+v", s)
	}
	if got := filepath.Base(res.Files[1].Path); got != "agent-36541525.jsonl" || res.Files[1].Size != 20420 {
		t.Errorf("second file %s %d", got, res.Files[1].Size)
	}
}
