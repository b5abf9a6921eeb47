package opencode

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// wantTurn is what one turn of a fixture must read as.
type wantTurn struct {
	status  memory.TurnStatus
	request string
	outcome string
	flags   memory.Provenance
	parts   []string // role/kind[/tool][!], see partKinds
}

// realFixtures are the exports of testdata/real (see testdata/SOURCES.md):
// every prompt sent in the recording session is one turn here, in order.
var realFixtures = []struct {
	file    string
	id      string
	parent  string
	records int // session info + messages + parts in the file
	turns   []wantTurn
}{
	{
		// Four `opencode run` prompts: a greeting, a read, a bash call
		// and one aborted through the server API (POST /session/:id/abort).
		// `opencode run` quotes its argument, hence the quotes in the
		// first three requests; the fourth was sent over HTTP.
		file: "real/tools-abort.export.json", id: "ses_dd46453a6ffeXulBS18MWvOTuX", records: 30,
		turns: []wantTurn{
			{memory.TurnCompleted, `"hello there, please greet me"`,
				`Hello! I am a scripted model. You said: "hello there, please greet me"`, 0,
				[]string{"user/text", "assistant/text"}},
			{memory.TurnCompleted, `"READ the README please"`,
				"The README says this is a demo repository for cairn fixtures.", memory.FromFiles,
				[]string{"user/text", "assistant/tool_call/read", "tool/tool_result/read", "assistant/text"}},
			{memory.TurnCompleted, `"BASH: show me the git history"`,
				"There is one commit: the initial import.", 0,
				[]string{"user/text", "assistant/tool_call/bash", "tool/tool_result/bash", "assistant/text"}},
			// MessageAbortedError, no parts at all in the aborted answer.
			{memory.TurnCutShort, "Please STALL so that I can press escape", "", 0,
				[]string{"user/text", "system/text!"}},
		},
	},
	{
		// Five prompts: an attached file (a file part plus two synthetic
		// text parts with its content, which are not the request), a read
		// of a missing file (tool status error), a provider HTTP 400
		// (APIError), a write (which also left a patch part) and an MCP
		// tool call (server "notes", tool "lookup").
		file: "real/file-error-write-mcp.export.json", id: "ses_dd46394a6ffeEGIHS6fv7J3CaK", records: 44,
		turns: []wantTurn{
			{memory.TurnCompleted, `"What does this attached file do?"`,
				`Hello! I am a scripted model. You said: Called the Read tool with the following input: {"filePath":"`,
				memory.FromFiles, []string{"user/text", "user/text", "assistant/text"}},
			{memory.TurnCompleted, `"Now read a MISSING file"`,
				"That file does not exist, so I could not read it.", memory.FromFiles,
				[]string{"user/text", "assistant/tool_call/read", "tool/tool_result/read!", "assistant/text"}},
			{memory.TurnFailed, `"This one should FAIL at the provider"`, "", 0,
				[]string{"user/text", "system/text!"}},
			{memory.TurnCompleted, `"Please WRITE a notes file"`,
				"I wrote NOTES.md with the release note.", 0,
				[]string{"user/text", "assistant/tool_call/write", "tool/tool_result/write", "assistant/text"}},
			{memory.TurnCompleted, `"Ask the MCP notes server about releases"`,
				"The team note says releases are cut on Fridays.", memory.FromMCP,
				[]string{"user/text", "assistant/tool_call/notes_lookup", "tool/tool_result/notes_lookup", "assistant/text"}},
		},
	},
	{
		// Three prompts: a task tool that ran a subagent, a stream the
		// provider ended with content_filter (ContentFilterError), and a
		// stream that stalled; OpenCode retried it six times (finish
		// "unknown") and the process was then killed with SIGTERM, leaving
		// a last answer with no completion time.
		file: "real/task-filter-killed.export.json", id: "ses_dd462f356ffersuwv3QaQH3H8J", records: 46,
		turns: []wantTurn{
			{memory.TurnCompleted, `"Delegate via TASK: have a subagent list the files"`,
				"The subagent found README.md and main.go.", 0,
				[]string{"user/text", "assistant/tool_call/task", "tool/tool_result/task", "assistant/text"}},
			{memory.TurnRefused, `"Say something the FILTER will cut"`, "I can only say part of this", 0,
				[]string{"user/text", "assistant/text", "system/text!"}},
			{memory.TurnCutShort, `"Start a long answer, I will STALL and interrupt"`, "Starting a long answer", 0,
				[]string{"user/text", "assistant/text", "assistant/text", "assistant/text",
					"assistant/text", "assistant/text", "assistant/text"}},
		},
	},
	{
		// The child session the task tool above ran: one turn whose
		// request is the task's prompt.
		file: "real/subagent.export.json", id: "ses_dd462d815ffeG6IOC57Ownb99s",
		parent: "ses_dd462f356ffersuwv3QaQH3H8J", records: 7,
		turns: []wantTurn{
			{memory.TurnCompleted, "SUBAGENT: list the files in this repository",
				"Subagent report: the repository holds README.md and main.go.", 0,
				[]string{"user/text", "assistant/text"}},
		},
	},
}

func TestRealExports(t *testing.T) {
	for _, fx := range realFixtures {
		t.Run(fx.file, func(t *testing.T) {
			res := parseFile(t, fx.file)
			if len(res.Sessions) != 1 {
				t.Fatalf("sessions = %d, want 1", len(res.Sessions))
			}
			if res.Stats.SkippedTotal() != 0 || res.Stats.Pending {
				t.Errorf("stats = %+v, want nothing skipped", res.Stats)
			}
			if res.Stats.Lines != fx.records {
				t.Errorf("records = %d, want %d", res.Stats.Lines, fx.records)
			}
			s := res.Sessions[0]
			if s.ExternalID != fx.id || s.ParentExternalID != fx.parent || s.Subagent != (fx.parent != "") {
				t.Errorf("ids = %q parent %q subagent %v", s.ExternalID, s.ParentExternalID, s.Subagent)
			}
			if s.Provider != memory.ProviderOpenCode || s.Cwd != "/tmp/ocr/demo-repo" ||
				s.ClientVersion != "1.18.33" || s.Model != "scripted-model" || s.Title == "" {
				t.Errorf("session fields: %+v", s)
			}
			if s.StartedAt.IsZero() || s.EndedAt.Before(s.StartedAt) {
				t.Errorf("session times %v .. %v", s.StartedAt, s.EndedAt)
			}
			if len(s.Turns) != len(fx.turns) {
				t.Fatalf("turns = %d, want %d", len(s.Turns), len(fx.turns))
			}
			for i, w := range fx.turns {
				got := s.Turns[i]
				if got.Seq != i || got.Status != w.status || got.Request != w.request || got.Outcome != w.outcome || got.Flags != w.flags {
					t.Errorf("turn %d = seq %d %s %q -> %q flags %v; want %s %q -> %q flags %v",
						i, got.Seq, got.Status, got.Request, got.Outcome, got.Flags, w.status, w.request, w.outcome, w.flags)
				}
				if k := partKinds(got); !slices.Equal(k, w.parts) {
					t.Errorf("turn %d parts = %v, want %v", i, k, w.parts)
				}
				if got.Model != "scripted-model" || got.StartedAt.IsZero() || got.EndedAt.Before(got.StartedAt) {
					t.Errorf("turn %d model %q times %v .. %v", i, got.Model, got.StartedAt, got.EndedAt)
				}
				for j, p := range got.Parts {
					if p.Seq != j || p.Time.IsZero() {
						t.Errorf("turn %d part %d: seq %d time %v", i, j, p.Seq, p.Time)
					}
				}
			}
		})
	}
}

// TestRealExportDetails checks the parts whose text matters most.
func TestRealExportDetails(t *testing.T) {
	s := parseFile(t, "real/file-error-write-mcp.export.json").Sessions[0]
	attach := s.Turns[0]
	if attach.Parts[0].Text != "[file: main.go]" {
		t.Errorf("file part = %q, want the placeholder", attach.Parts[0].Text)
	}
	for _, p := range attach.Parts {
		if p.Role == memory.RoleUser && p.Text != "[file: main.go]" && p.Text != attach.Request {
			t.Errorf("synthetic content leaked into a part: %q", p.Text)
		}
	}
	write := s.Turns[3].Parts[1]
	if want := "filePath: /tmp/ocr/demo-repo/NOTES.md\ncontent: # Notes\n\nReleases are cut on Fridays."; write.Text != want {
		t.Errorf("write input = %q, want %q", write.Text, want)
	}
	missing := s.Turns[1].Parts[2]
	if missing.Text != "File not found: /tmp/ocr/demo-repo/does-not-exist.txt" {
		t.Errorf("error result = %q", missing.Text)
	}
	if s.Turns[2].Parts[1].Text != "[error: APIError]" {
		t.Errorf("error part = %q", s.Turns[2].Parts[1].Text)
	}

	task := parseFile(t, "real/task-filter-killed.export.json").Sessions[0].Turns[0]
	if want := "description: List repo files\nprompt: SUBAGENT: list the files in this repository\nsubagent_type: general"; task.Parts[1].Text != want {
		t.Errorf("task input = %q", task.Parts[1].Text)
	}
	bash := parseFile(t, "real/tools-abort.export.json").Sessions[0].Turns[2]
	if bash.Parts[2].Text != "788ad91 initial import\n" {
		t.Errorf("bash output = %q", bash.Parts[2].Text)
	}
	// Times come from the records: the read call started at 1796027977132.
	read := parseFile(t, "real/tools-abort.export.json").Sessions[0].Turns[1].Parts[1]
	if want := time.UnixMilli(1796027977132).UTC(); !read.Time.Equal(want) {
		t.Errorf("read call time = %v, want %v", read.Time, want)
	}
}

// TestSyntheticStorage reads the simplified legacy tree copied from
// codemie-code: one session, one user message and one assistant message,
// so one turn. The assistant message has no time.completed (the synthetic
// file leaves it out), which OpenCode writes only when a message finished,
// so the turn is cut_short. Its four parts: two tools (calls and results),
// a step-finish (ignored) and the reply text; the message's own parts list
// names three of them and orders them first.
func TestSyntheticStorage(t *testing.T) {
	res, err := ParseStorage(context.Background(), "testdata/synthetic/codemie_legacy_storage_SYNTHETIC")
	if err != nil {
		t.Fatal(err)
	}
	// 1 session file, 2 message files, 5 part files.
	if res.Stats.Lines != 8 || len(res.Files) != 8 || res.Stats.SkippedTotal() != 0 {
		t.Fatalf("stats = %+v, files = %d", res.Stats, len(res.Files))
	}
	if len(res.Sessions) != 1 {
		t.Fatalf("sessions = %d", len(res.Sessions))
	}
	s := res.Sessions[0]
	if s.ExternalID != "test-session-1" || s.Cwd != "/test/project" || s.ClientVersion != "1.0.0" || s.Model != "claude-sonnet-4-6" {
		t.Errorf("session = %+v", s)
	}
	if len(s.Turns) != 1 {
		t.Fatalf("turns = %d", len(s.Turns))
	}
	turn := s.Turns[0]
	if turn.Key != "msg-user-1" || turn.Request != "Create a test file with console.log statements" ||
		turn.Outcome != "Created src/test.ts with three console.log statements and read src/existing.ts." ||
		turn.Status != memory.TurnCutShort {
		t.Errorf("turn = %+v", turn)
	}
	want := []string{"user/text", "assistant/tool_call/Write", "tool/tool_result/Write",
		"assistant/tool_call/Read", "tool/tool_result/Read", "assistant/text"}
	if k := partKinds(turn); !slices.Equal(k, want) {
		t.Errorf("parts = %v, want %v", k, want)
	}
	// The synthetic output is an object, rendered like an input.
	if turn.Parts[4].Text != "content: existing content" {
		t.Errorf("object output = %q", turn.Parts[4].Text)
	}
}
