package codex

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// Builders for small rollouts written in the tests. Times advance one
// second per record so ordering is visible.

type rollout struct {
	lines []string
	sec   int
}

func (r *rollout) add(typ, payload string) *rollout {
	r.sec++
	r.lines = append(r.lines, fmt.Sprintf(`{"timestamp":"2026-06-01T10:%02d:%02d.000Z","type":%q,"payload":%s}`, r.sec/60, r.sec%60, typ, payload))
	return r
}

func (r *rollout) raw(line string) *rollout {
	r.lines = append(r.lines, line)
	return r
}

func (r *rollout) meta(extra string) *rollout {
	return r.add("session_meta", `{"id":"019e0000-0000-7000-8000-000000000001","timestamp":"2026-06-01T10:00:00.000Z","cwd":"/w","cli_version":"0.130.0","git":{"branch":"dev"}`+extra+`}`)
}

func (r *rollout) started(id string) *rollout {
	return r.add("event_msg", `{"type":"task_started","turn_id":"`+id+`"}`)
}

func (r *rollout) user(msg string) *rollout {
	return r.add("event_msg", `{"type":"user_message","message":`+quote(msg)+`,"images":[],"local_images":[]}`)
}

func (r *rollout) answer(text, phase string) *rollout {
	return r.add("response_item", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":`+quote(text)+`}],"phase":"`+phase+`"}`)
}

func (r *rollout) complete(id, last string) *rollout {
	return r.add("event_msg", `{"type":"task_complete","turn_id":"`+id+`","last_agent_message":`+quote(last)+`}`)
}

func (r *rollout) String() string { return strings.Join(r.lines, "\n") + "\n" }

func quote(s string) string { return fmt.Sprintf("%q", s) }

func parseString(t testing.TB, s string) transcript.Result {
	t.Helper()
	res, err := Parse(context.Background(), strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func onlySession(t *testing.T, res transcript.Result) memory.Session {
	t.Helper()
	if len(res.Sessions) != 1 {
		t.Fatalf("sessions = %d, want 1", len(res.Sessions))
	}
	return res.Sessions[0]
}

func TestTurnStatus(t *testing.T) {
	cases := []struct {
		name    string
		build   func(r *rollout)
		status  memory.TurnStatus
		outcome string
		part    string // a part text that must exist, when set
	}{
		{"task_complete", func(r *rollout) {
			r.started("t1").user("do it").answer("working", "commentary").answer("done", "final_answer").complete("t1", "done")
		}, memory.TurnCompleted, "done", ""},
		{"final answer wins over last_agent_message", func(r *rollout) {
			r.started("t1").user("do it").answer("the answer", "final_answer").answer("p.s.", "commentary").complete("t1", "other")
		}, memory.TurnCompleted, "the answer", ""},
		{"last_agent_message without a final answer", func(r *rollout) {
			r.started("t1").user("do it").answer("looking", "commentary").complete("t1", "reported")
		}, memory.TurnCompleted, "reported", ""},
		{"interrupted", func(r *rollout) {
			r.started("t1").user("do it").answer("looking", "commentary").
				add("event_msg", `{"type":"turn_aborted","turn_id":"t1","reason":"interrupted"}`)
		}, memory.TurnCutShort, "looking", "turn aborted: interrupted"},
		{"replaced", func(r *rollout) {
			r.started("t1").user("do it").add("event_msg", `{"type":"turn_aborted","reason":"replaced"}`)
		}, memory.TurnCutShort, "", "turn aborted: replaced"},
		{"error and no answer", func(r *rollout) {
			r.started("t1").user("do it").add("event_msg", `{"type":"error","message":"usage limit reached"}`).complete("t1", "")
		}, memory.TurnFailed, "", "usage limit reached"},
		{"stream error then an answer", func(r *rollout) {
			r.started("t1").user("do it").add("event_msg", `{"type":"stream_error","message":"reconnecting 1/5"}`).
				answer("fine", "final_answer").complete("t1", "fine")
		}, memory.TurnCompleted, "fine", ""},
		{"refusal", func(r *rollout) {
			r.started("t1").user("do it").
				add("response_item", `{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"I can't help with that."}],"phase":"final_answer"}`).
				complete("t1", "")
		}, memory.TurnRefused, "I can't help with that.", ""},
		{"no task_complete at the end of the file", func(r *rollout) {
			r.started("t1").user("do it").answer("still going", "commentary")
		}, memory.TurnCutShort, "still going", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := (&rollout{}).meta("")
			c.build(r)
			s := onlySession(t, parseString(t, r.String()))
			if len(s.Turns) != 1 {
				t.Fatalf("turns = %d, want 1", len(s.Turns))
			}
			got := s.Turns[0]
			if got.Status != c.status || got.Outcome != c.outcome || got.Request != "do it" {
				t.Errorf("got status %s outcome %q request %q; want %s %q", got.Status, got.Outcome, got.Request, c.status, c.outcome)
			}
			if c.part != "" && !hasPart(got, c.part) {
				t.Errorf("no part %q in %+v", c.part, got.Parts)
			}
		})
	}
}

func hasPart(turn memory.Turn, text string) bool {
	for _, p := range turn.Parts {
		if p.Text == text {
			return true
		}
	}
	return false
}

func TestTurnBoundaries(t *testing.T) {
	t.Run("superseded turn is cut short", func(t *testing.T) {
		r := (&rollout{}).meta("").started("t1").user("one").started("t2").user("two").answer("ok", "final_answer").complete("t2", "ok")
		s := onlySession(t, parseString(t, r.String()))
		if len(s.Turns) != 2 || s.Turns[0].Status != memory.TurnCutShort || s.Turns[1].Status != memory.TurnCompleted {
			t.Fatalf("turns = %+v", s.Turns)
		}
	})
	t.Run("prompt typed into a running turn joins it", func(t *testing.T) {
		r := (&rollout{}).meta("").started("t1").user("first").answer("hm", "commentary").user("also this").complete("t1", "ok")
		s := onlySession(t, parseString(t, r.String()))
		if len(s.Turns) != 1 || s.Turns[0].Request != "first\n\nalso this" {
			t.Fatalf("turns = %d, request %q", len(s.Turns), s.Turns[0].Request)
		}
	})
	t.Run("turn_context repeats do not split a turn", func(t *testing.T) {
		r := (&rollout{}).meta("").started("t1").add("turn_context", `{"turn_id":"t1","model":"m1"}`).user("x").
			add("turn_context", `{"turn_id":"t1","model":"m1"}`).answer("y", "final_answer").complete("t1", "y")
		s := onlySession(t, parseString(t, r.String()))
		if len(s.Turns) != 1 || s.Turns[0].Model != "m1" || s.Model != "m1" {
			t.Fatalf("turns = %+v", s.Turns)
		}
	})
	t.Run("user message before task_started", func(t *testing.T) {
		r := (&rollout{}).meta("").user("x").started("t9").answer("y", "final_answer").complete("t9", "y")
		s := onlySession(t, parseString(t, r.String()))
		if len(s.Turns) != 1 || s.Turns[0].Key != "t9" || s.Turns[0].Status != memory.TurnCompleted {
			t.Fatalf("turns = %+v", s.Turns)
		}
	})
	t.Run("no turn ids: one turn per prompt with derived keys", func(t *testing.T) {
		r := (&rollout{}).meta("").user("a").answer("1", "").user("b").answer("2", "")
		s := onlySession(t, parseString(t, r.String()))
		if len(s.Turns) != 2 {
			t.Fatalf("turns = %d", len(s.Turns))
		}
		// No lifecycle events: an answered turn that was followed is done;
		// the last one, with no final_answer phase, may still be running.
		if s.Turns[0].Key != "2026-06-01T10:00:02.000Z#1" || s.Turns[1].Key != "2026-06-01T10:00:04.000Z#2" ||
			s.Turns[0].Status != memory.TurnCompleted || s.Turns[1].Status != memory.TurnCutShort {
			t.Fatalf("turns = %s %s %s %s", s.Turns[0].Key, s.Turns[0].Status, s.Turns[1].Key, s.Turns[1].Status)
		}
	})
	t.Run("old turns without ids, then turns with ids", func(t *testing.T) {
		// A rollout written by an old build and resumed by a newer one.
		r := (&rollout{}).meta("").user("a").answer("1", "final_answer").started("t2").user("b").answer("2", "final_answer").complete("t2", "2")
		s := onlySession(t, parseString(t, r.String()))
		if len(s.Turns) != 2 || s.Turns[0].Request != "a" || s.Turns[1].Key != "t2" || s.Turns[1].Request != "b" ||
			s.Turns[0].Status != memory.TurnCompleted || s.Turns[1].Status != memory.TurnCompleted {
			t.Fatalf("turns = %+v", s.Turns)
		}
	})
	t.Run("rolled back turns are cut short", func(t *testing.T) {
		r := (&rollout{}).meta("").started("t1").user("a").complete("t1", "1").started("t2").user("b").complete("t2", "2").
			add("event_msg", `{"type":"thread_rolled_back","num_turns":1}`)
		s := onlySession(t, parseString(t, r.String()))
		if s.Turns[0].Status != memory.TurnCompleted || s.Turns[1].Status != memory.TurnCutShort {
			t.Fatalf("statuses %s %s", s.Turns[0].Status, s.Turns[1].Status)
		}
	})
	t.Run("a manual compaction is not a turn", func(t *testing.T) {
		r := (&rollout{}).meta("").started("t1").user("a").complete("t1", "1").started("t2").
			add("compacted", `{"message":"summary of the work"}`).complete("t2", "")
		s := onlySession(t, parseString(t, r.String()))
		if len(s.Turns) != 1 {
			t.Fatalf("turns = %d, want 1", len(s.Turns))
		}
	})
}

func TestRequestAndContext(t *testing.T) {
	r := (&rollout{}).meta("").started("t1").
		add("response_item", `{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>sandbox</permissions instructions>"}]}`).
		add("response_item", `{"type":"message","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>be nice</INSTRUCTIONS>"},{"type":"input_text","text":"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}`).
		add("response_item", `{"type":"message","role":"user","content":[{"type":"input_text","text":"# Context from my IDE setup:\n\n## Active file: a.go\n\n## My request for Codex:\nfix the bug"}]}`).
		add("event_msg", `{"type":"user_message","message":"# Context from my IDE setup:\n\n## Active file: a.go\n\n## My request for Codex:\nfix the bug\n","images":[],"local_images":["/tmp/shot.png"]}`).
		answer("fixed", "final_answer").complete("t1", "fixed")
	s := onlySession(t, parseString(t, r.String()))
	turn := s.Turns[0]
	if turn.Request != "fix the bug" {
		t.Errorf("request = %q", turn.Request)
	}
	if turn.Flags != memory.FromFiles|memory.FromImages {
		t.Errorf("flags = %q, want files,images", turn.Flags)
	}
	if !hasPart(turn, "# Context from my IDE setup:\n\n## Active file: a.go") {
		t.Errorf("context block not kept as its own part: %+v", turn.Parts)
	}
	for _, p := range turn.Parts {
		if strings.Contains(p.Text, "AGENTS.md") || strings.Contains(p.Text, "permissions") || strings.Contains(p.Text, "environment_context") {
			t.Errorf("injected text stored: %q", p.Text)
		}
	}
}

func TestMarkerLeavesNoTrace(t *testing.T) {
	const block = "<cairn-memory>\nsecret recalled note: the port is 7777\n</cairn-memory>"
	cases := []struct {
		name  string
		build func(r *rollout)
	}{
		{"in the user message", func(r *rollout) {
			r.started("t1").user("please help\n"+block+"\nwith this").answer("ok "+block, "final_answer").complete("t1", "ok "+block)
		}},
		{"in hook context", func(r *rollout) {
			r.started("t1").
				add("response_item", `{"type":"message","role":"developer","content":[{"type":"input_text","text":`+quote(block)+`}]}`).
				user("please help with this").answer("ok", "final_answer").complete("t1", "ok")
		}},
		{"in session start context", func(r *rollout) {
			r.add("response_item", `{"type":"message","role":"developer","content":[{"type":"input_text","text":`+quote(block)+`}]}`).
				started("t1").user("please help with this").answer("ok", "final_answer").complete("t1", "ok")
		}},
		{"in a tool result", func(r *rollout) {
			r.started("t1").user("please help with this").
				add("response_item", `{"type":"function_call","name":"mcp__cairn__recall","arguments":"{}","call_id":"c1"}`).
				add("response_item", `{"type":"function_call_output","call_id":"c1","output":`+quote(block)+`}`).
				answer("ok", "final_answer").complete("t1", "ok")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := (&rollout{}).meta("")
			c.build(r)
			s := onlySession(t, parseString(t, r.String()))
			turn := s.Turns[0]
			if turn.Flags&memory.FromRecalledMemory == 0 {
				t.Errorf("flags = %q, want recalled_memory", turn.Flags)
			}
			all := turn.Request + turn.Outcome
			for _, p := range turn.Parts {
				all += p.Text
			}
			if strings.Contains(all, "cairn-memory") || strings.Contains(all, "7777") {
				t.Errorf("marker span left a trace: %q", all)
			}
		})
	}
}

func TestProvenance(t *testing.T) {
	call := func(name, extra string) string {
		return `{"type":"function_call","name":"` + name + `"` + extra + `,"arguments":"{}","call_id":"c1"}`
	}
	cases := []struct {
		name  string
		item  [2]string // record type, payload
		flags memory.Provenance
	}{
		{"mcp by name", [2]string{"response_item", call("mcp__github__search", "")}, memory.FromMCP},
		{"mcp by namespace", [2]string{"response_item", call("js", `,"namespace":"mcp__node_repl__"`)}, memory.FromMCP},
		{"mcp end event", [2]string{"event_msg", `{"type":"mcp_tool_call_end","call_id":"c9","invocation":{"server":"s","tool":"t"},"result":{"Ok":{"content":[]}}}`}, memory.FromMCP},
		{"browser tool", [2]string{"response_item", call("mcp__playwright__browser_navigate", "")}, memory.FromMCP | memory.FromBrowser},
		{"web search", [2]string{"response_item", `{"type":"web_search_call","status":"completed","action":{"type":"search","query":"go zstd"}}`}, memory.FromBrowser | memory.FromProviderTools},
		{"image generation", [2]string{"response_item", `{"type":"image_generation_call","status":"completed","revised_prompt":"a cat","result":"iVBORw0KGgo="}`}, memory.FromImages | memory.FromProviderTools},
		{"tool search", [2]string{"response_item", `{"type":"tool_search_call","call_id":"c1","arguments":"{\"query\":\"calendar\"}"}`}, memory.FromProviderTools},
		{"view image", [2]string{"response_item", call("view_image", "")}, memory.FromFiles | memory.FromImages},
		{"file read parsed by codex", [2]string{"event_msg", `{"type":"exec_command_end","call_id":"c1","parsed_cmd":[{"type":"read","cmd":"cat a","name":"a","path":"a"}],"exit_code":0}`}, memory.FromFiles},
		{"image in a tool output", [2]string{"response_item", `{"type":"function_call_output","call_id":"c1","output":[{"type":"input_image","image_url":"data:image/png;base64,AAAA"}]}`}, memory.FromImages},
		{"plain shell command", [2]string{"response_item", call("exec_command", "")}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := (&rollout{}).meta("").started("t1").user("go").add(c.item[0], c.item[1]).answer("ok", "final_answer").complete("t1", "ok")
			s := onlySession(t, parseString(t, r.String()))
			if got := s.Turns[0].Flags; got != c.flags {
				t.Errorf("flags = %q, want %q", got, c.flags)
			}
		})
	}
	t.Run("user images", func(t *testing.T) {
		r := (&rollout{}).meta("").started("t1").
			add("event_msg", `{"type":"user_message","message":"look","images":["data:image/png;base64,AAAA"],"local_images":[]}`).complete("t1", "ok")
		if got := onlySession(t, parseString(t, r.String())).Turns[0].Flags; got != memory.FromImages {
			t.Errorf("flags = %q", got)
		}
	})
}

func TestToolPairing(t *testing.T) {
	r := (&rollout{}).meta("").started("t1").user("go").
		add("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\\nls -la\",\"workdir\":\"/w\",\"yield_time_ms\":1000}","call_id":"a"}`).
		add("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"false\"}","call_id":"b"}`).
		add("response_item", `{"type":"function_call_output","call_id":"b","output":"Chunk ID: 1\nProcess exited with code 1\nOutput:\n"}`).
		add("response_item", `{"type":"function_call_output","call_id":"a","output":"file1\nfile2"}`).
		add("response_item", `{"type":"custom_tool_call","status":"completed","call_id":"p","name":"apply_patch","input":"*** Begin Patch\n*** Add File: x\n+hi\n*** End Patch\n"}`).
		add("response_item", `{"type":"custom_tool_call_output","call_id":"p","output":"{\"output\":\"Success.\",\"metadata\":{\"exit_code\":0}}"}`).
		add("response_item", `{"type":"function_call_output","call_id":"zzz","output":"orphan"}`).
		answer("ok", "final_answer").complete("t1", "ok")
	turn := onlySession(t, parseString(t, r.String())).Turns[0]
	type pt struct {
		kind memory.PartKind
		tool string
		text string
		err  bool
	}
	want := []pt{
		{memory.KindText, "", "go", false},
		{memory.KindToolCall, "exec_command", "cmd: ls\nls -la\nworkdir: /w\nyield_time_ms: 1000", false},
		{memory.KindToolResult, "exec_command", "file1\nfile2", false},
		{memory.KindToolCall, "exec_command", "cmd: false", false},
		{memory.KindToolResult, "exec_command", "Chunk ID: 1\nProcess exited with code 1\nOutput:\n", true},
		{memory.KindToolCall, "apply_patch", "*** Begin Patch\n*** Add File: x\n+hi\n*** End Patch\n", false},
		{memory.KindToolResult, "apply_patch", "Success.", false},
		{memory.KindToolResult, "", "orphan", false},
		{memory.KindText, "", "ok", false},
	}
	if len(turn.Parts) != len(want) {
		t.Fatalf("parts = %+v", turn.Parts)
	}
	for i, w := range want {
		p := turn.Parts[i]
		if p.Kind != w.kind || p.Tool != w.tool || p.Text != w.text || p.IsError != w.err {
			t.Errorf("part %d = %s %s %q err=%v; want %s %s %q err=%v", i, p.Kind, p.Tool, p.Text, p.IsError, w.kind, w.tool, w.text, w.err)
		}
	}
}

func TestLineage(t *testing.T) {
	t.Run("spawned subagent", func(t *testing.T) {
		r := (&rollout{}).meta(`,"source":{"subagent":{"thread_spawn":{"parent_thread_id":"019d0000-0000-7000-8000-0000000000aa","depth":1,"agent_role":"explorer"}}}`).
			add("inter_agent_communication", `{"author":"/root","recipient":"/root/explorer","content":"map the repo","trigger_turn":true}`).
			answer("mapped", "final_answer")
		s := onlySession(t, parseString(t, r.String()))
		if !s.Subagent || s.ParentExternalID != "019d0000-0000-7000-8000-0000000000aa" {
			t.Errorf("subagent=%v parent=%q", s.Subagent, s.ParentExternalID)
		}
		if len(s.Turns) != 1 || s.Turns[0].Request != "map the repo" || s.Turns[0].Flags != 0 {
			t.Errorf("turns = %+v", s.Turns)
		}
	})
	t.Run("fork drops copied turns and flags the rest", func(t *testing.T) {
		// The copy comes after the parent's session_meta; its turn ids are
		// UUIDv7 from before this rollout's own id was made.
		r := (&rollout{}).meta(`,"forked_from_id":"019d0000-0000-7000-8000-0000000000aa"`).
			add("session_meta", `{"id":"019d0000-0000-7000-8000-0000000000aa","cwd":"/w"}`).
			started("019d0000-0001-7000-8000-000000000001").user("old question").answer("old answer", "final_answer").complete("019d0000-0001-7000-8000-000000000001", "old answer").
			started("019e0000-0001-7000-8000-000000000002").user("new question").answer("new answer", "final_answer").complete("019e0000-0001-7000-8000-000000000002", "new answer")
		res := parseString(t, r.String())
		s := onlySession(t, res)
		if s.ExternalID != "019e0000-0000-7000-8000-000000000001" || s.ParentExternalID != "019d0000-0000-7000-8000-0000000000aa" || s.Subagent {
			t.Errorf("session %s parent %s subagent %v", s.ExternalID, s.ParentExternalID, s.Subagent)
		}
		if len(s.Turns) != 1 || s.Turns[0].Request != "new question" || s.Turns[0].Flags != memory.FromReferencedChats {
			t.Fatalf("turns = %+v", s.Turns)
		}
		if res.Stats.Skipped["turn copied from parent"] != 1 {
			t.Errorf("stats = %+v", res.Stats)
		}
	})
	t.Run("explicit history start ordinal", func(t *testing.T) {
		r := (&rollout{}).
			raw(`{"timestamp":"2026-06-01T10:00:00Z","ordinal":0,"type":"session_meta","payload":{"id":"child","source":{"subagent":{"thread_spawn":{"parent_thread_id":"p"}}},"subagent_history_start_ordinal":2}}`).
			raw(`{"timestamp":"2026-06-01T10:00:00Z","ordinal":1,"type":"event_msg","payload":{"type":"user_message","message":"root prompt"}}`).
			raw(`{"timestamp":"2026-06-01T10:00:01Z","ordinal":2,"type":"event_msg","payload":{"type":"user_message","message":"child task"}}`).
			raw(`{"timestamp":"2026-06-01T10:00:02Z","ordinal":3,"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}],"phase":"final_answer"}}`)
		s := onlySession(t, parseString(t, r.String()))
		if len(s.Turns) != 1 || s.Turns[0].Request != "child task" || s.ParentExternalID != "p" {
			t.Fatalf("turns = %+v", s.Turns)
		}
	})
}

func TestRobustness(t *testing.T) {
	r := (&rollout{}).meta("").started("t1").user("go").
		raw(`{not json`).
		raw(`{"timestamp":"x","payload":{}}`).
		raw(`{"timestamp":"x","type":"response_item"}`).
		add("mystery_record", `{"a":1}`).
		add("event_msg", `{"type":"brand_new_event"}`).
		add("response_item", `{"type":"brand_new_item"}`).
		add("event_msg", `{"type":"user_message"}`).
		add("event_msg", `{"type":"token_count","info":null}`).
		add("response_item", `{"type":"reasoning","summary":[],"encrypted_content":"x"}`).
		add("turn_context", `{"turn_id":"t1","model":"m"}`).
		add("event_msg", `{"type":"agent_reasoning","text":"thinking"}`).
		add("weird type with spaces and secrets", `{}`).
		raw("").
		answer("ok", "final_answer").complete("t1", "ok")
	res := parseString(t, r.String())
	want := map[string]int{
		"invalid json":                          1,
		"missing type":                          1,
		"missing payload: response_item":        1,
		"unknown type: mystery_record":          1,
		"unknown event_msg: brand_new_event":    1,
		"unknown response_item: brand_new_item": 1,
		"user_message without message":          1,
		"unknown type: ?":                       1,
	}
	if fmt.Sprint(res.Stats.Skipped) != fmt.Sprint(want) {
		t.Errorf("skipped = %v\nwant      %v", res.Stats.Skipped, want)
	}
	s := onlySession(t, res)
	if len(s.Turns) != 1 || s.Turns[0].Status != memory.TurnCompleted || hasPart(s.Turns[0], "thinking") {
		t.Errorf("turns = %+v", s.Turns)
	}
	if res.Stats.Lines != len(r.lines) {
		t.Errorf("lines = %d, want %d", res.Stats.Lines, len(r.lines))
	}
}

func TestHalfWrittenLastLine(t *testing.T) {
	r := (&rollout{}).meta("").started("t1").user("go").answer("ok", "final_answer")
	whole := r.String()
	in := whole + `{"timestamp":"2026-06-01T10:09:00Z","type":"event_msg","payload":{"type":"task_compl`
	res := parseString(t, in)
	if !res.Stats.Pending || res.Stats.Consumed != int64(len(whole)) {
		t.Errorf("pending=%v consumed=%d, want true %d", res.Stats.Pending, res.Stats.Consumed, len(whole))
	}
	s := onlySession(t, res)
	if len(s.Turns) != 1 || s.Turns[0].Status != memory.TurnCutShort {
		t.Errorf("turns = %+v", s.Turns)
	}
}

func TestLongLine(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	r := (&rollout{}).meta("").started("t1").user(big).answer("ok", "final_answer").complete("t1", "ok")
	s := onlySession(t, parseString(t, r.String()))
	if len(s.Turns) != 1 || s.Turns[0].Request != big {
		t.Fatalf("request of %d bytes, want %d", len(s.Turns[0].Request), len(big))
	}
}

func TestEmptyInput(t *testing.T) {
	for _, in := range []string{"", "\n\n", "{\"timestamp\":\"x\",\"type\":\"session_me"} {
		res := parseString(t, in)
		if len(res.Sessions) != 0 {
			t.Errorf("%q: sessions = %d", in, len(res.Sessions))
		}
	}
}

func TestContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parse(ctx, strings.NewReader((&rollout{}).meta("").String())); err == nil {
		t.Fatal("no error from a cancelled context")
	}
}
