package claudecode

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestHalfWrittenLastLine(t *testing.T) {
	data, err := os.ReadFile("testdata/spotter/subagent.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// Cut in the middle of line 92, the final answer of turn 2.
	lines := bytes.SplitAfter(data, []byte("\n"))
	start := 0
	for _, l := range lines[:91] {
		start += len(l)
	}
	cut := data[:start+len(lines[91])/2]

	res, err := Parse(bytes.NewReader(cut), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stats.Pending || res.Stats.Consumed != int64(start) || res.Stats.Lines != 91 {
		t.Fatalf("pending %v consumed %d lines %d, want true %d 91", res.Stats.Pending, res.Stats.Consumed, res.Stats.Lines, start)
	}
	s := onlySession(t, res)
	if len(s.Turns) != 2 {
		t.Fatalf("turns %q", requests(s))
	}
	last := s.Turns[1]
	if last.Status != memory.TurnCutShort || last.Outcome != "" {
		t.Errorf("truncated turn: status %s outcome %q", last.Status, last.Outcome)
	}
	for _, p := range last.Parts {
		if strings.Contains(p.Text, "Beads Created") {
			t.Errorf("a part of the half-written line survived: %q", p.Text)
		}
	}
}

// Cutting any fixture anywhere never fails and never consumes the cut line.
func TestTruncatedAnywhere(t *testing.T) {
	for _, c := range fixtureCases {
		data, err := os.ReadFile("testdata/" + c.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, len(data) / 3, len(data) / 2, len(data) - 2} {
			res, err := Parse(bytes.NewReader(data[:n]), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.Consumed > int64(n) || (res.Stats.Pending && res.Stats.Consumed == int64(n)) {
				t.Errorf("%s cut at %d: consumed %d pending %v", c.path, n, res.Stats.Consumed, res.Stats.Pending)
			}
		}
	}
}

func TestMegabyteLine(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	res := newScript(t).
		user("u1", "", "please read "+big).
		asst("a1", "u1", "m1", "", toolUse("t1", "Bash", obj{"command": "cat big"})).
		user("u2", "a1", []obj{toolResult("t1", big, false)}).
		asst("a2", "u2", "m2", "end_turn", text("done")).
		parse()
	turn := onlySession(t, res).Turns[0]
	if len(turn.Request) != len("please read ")+1<<20 || turn.Status != memory.TurnCompleted {
		t.Fatalf("request of %d bytes, status %s", len(turn.Request), turn.Status)
	}
	if len(turn.Parts[2].Text) != 1<<20 || res.Stats.Lines != 4 {
		t.Errorf("result of %d bytes, %d lines", len(turn.Parts[2].Text), res.Stats.Lines)
	}
}

func TestMarkerLeavesNoTrace(t *testing.T) {
	span := "<cairn-memory>recalled: the deploy key is in vault</cairn-memory>"
	res := newScript(t).
		add(obj{"type": "attachment", "uuid": "h0", "parentUuid": nil,
			"attachment": obj{"type": "hook_additional_context", "hookEvent": "SessionStart", "content": []string{span}}}).
		user("m0", "h0", "<system-reminder>\nSessionStart hook additional context: "+span+"\n</system-reminder>", obj{"isMeta": true}).
		user("u1", "m0", "fix the build "+span+" please").
		asst("a1", "u1", "m1", "", text("Looking. "+span), toolUse("t1", "Read", obj{"file_path": "notes " + span})).
		user("u2", "a1", []obj{toolResult("t1", "file body "+span, false)}).
		asst("a2", "u2", "m2", "end_turn", text("Fixed.")).
		parse()
	turn := onlySession(t, res).Turns[0]
	if turn.Request != "fix the build  please" {
		t.Errorf("request %q", turn.Request)
	}
	if turn.Flags&memory.FromRecalledMemory == 0 {
		t.Errorf("flags %q lack recalled_memory", turn.Flags)
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, trace := range []string{"cairn-memory", "deploy key", "additional context"} {
		if bytes.Contains(out, []byte(trace)) {
			t.Errorf("result still holds %q", trace)
		}
	}
}

func TestRewindKeepsActiveBranch(t *testing.T) {
	res := newScript(t).
		user("u1", "", "first question").
		asst("a1", "u1", "m1", "end_turn", text("first answer")).
		user("u2", "a1", "abandoned question").
		asst("a2", "u2", "m2", "end_turn", text("abandoned answer")).
		// The user rewinds to u2 and asks again: a second child of a1.
		user("u3", "a1", "second question").
		asst("a3", "u3", "m3", "end_turn", text("second answer")).
		parse()
	s := onlySession(t, res)
	if got := requests(s); !reflect.DeepEqual(got, []string{"first question", "second question"}) {
		t.Fatalf("requests %q", got)
	}
	if s.Turns[1].Outcome != "second answer" {
		t.Errorf("outcome %q", s.Turns[1].Outcome)
	}
}

func TestRewindToFirstPrompt(t *testing.T) {
	res := newScript(t).
		user("u1", "", "typo question").
		asst("a1", "u1", "m1", "end_turn", text("answer to the typo")).
		user("u2", "", "real question").
		asst("a2", "u2", "m2", "end_turn", text("real answer")).
		parse()
	if got := requests(onlySession(t, res)); !reflect.DeepEqual(got, []string{"real question"}) {
		t.Fatalf("requests %q", got)
	}
}

func TestCompactionContinuesTheBranch(t *testing.T) {
	res := newScript(t).
		user("u1", "", "long task").
		asst("a1", "u1", "m1", "", toolUse("t1", "Bash", obj{"command": "make"})).
		user("r1", "a1", []obj{toolResult("t1", "ok", false)}).
		add(obj{"type": "system", "subtype": "compact_boundary", "uuid": "cb", "parentUuid": nil,
			"logicalParentUuid": "r1", "content": "Conversation compacted"}).
		user("cs", "cb", "This session is being continued from a previous conversation.", obj{"isCompactSummary": true}).
		asst("a2", "cs", "m2", "end_turn", text("All done.")).
		user("u2", "a2", "next").
		asst("a3", "u2", "m3", "end_turn", text("ok")).
		parse()
	s := onlySession(t, res)
	if got := requests(s); !reflect.DeepEqual(got, []string{"long task", "next"}) {
		t.Fatalf("requests %q", got)
	}
	first := s.Turns[0]
	if first.Status != memory.TurnCompleted || first.Outcome != "All done." || len(first.Parts) != 5 {
		t.Fatalf("turn across compaction: %s %q %d parts", first.Status, first.Outcome, len(first.Parts))
	}
	if p := first.Parts[3]; p.Kind != memory.KindSummary || p.Role != memory.RoleSystem {
		t.Errorf("summary part %+v", p)
	}
}

func TestMergeByMessageID(t *testing.T) {
	// 2.1 writes one line per block. Without merging, the text-only
	// first line would look like a final answer.
	res := newScript(t).
		user("u1", "", "check it").
		asst("a1", "u1", "m1", "", text("Let me look.")).
		asst("a2", "a1", "m1", "", toolUse("t1", "Grep", obj{"pattern": "x"})).
		parse()
	turn := onlySession(t, res).Turns[0]
	if turn.Status != memory.TurnCutShort || turn.Outcome != "Let me look." || len(turn.Parts) != 3 {
		t.Fatalf("status %s outcome %q parts %d", turn.Status, turn.Outcome, len(turn.Parts))
	}

	// The text blocks of the last message together are the outcome.
	res = newScript(t).
		user("u1", "", "explain").
		asst("a1", "u1", "m1", "", text("Part one.")).
		asst("a2", "a1", "m1", "end_turn", text("Part two.")).
		parse()
	turn = onlySession(t, res).Turns[0]
	if turn.Status != memory.TurnCompleted || turn.Outcome != "Part one.\n\nPart two." {
		t.Fatalf("status %s outcome %q", turn.Status, turn.Outcome)
	}
}

func TestStatus(t *testing.T) {
	cases := []struct {
		name string
		tail func(s *script) *script
		want memory.TurnStatus
	}{
		{"text answer", func(s *script) *script { return s.asst("a1", "u1", "m1", "", text("done")) }, memory.TurnCompleted},
		{"end_turn without text", func(s *script) *script { return s.asst("a1", "u1", "m1", "end_turn") }, memory.TurnCompleted},
		{"refusal", func(s *script) *script { return s.asst("a1", "u1", "m1", "refusal", text("I can't help with that.")) }, memory.TurnRefused},
		{"max_tokens", func(s *script) *script { return s.asst("a1", "u1", "m1", "max_tokens", text("The answer is")) }, memory.TurnCutShort},
		{"no answer at end of file", func(s *script) *script { return s }, memory.TurnCutShort},
		{"waiting on a tool", func(s *script) *script {
			return s.asst("a1", "u1", "m1", "tool_use", toolUse("t1", "Bash", obj{"command": "ls"}))
		}, memory.TurnCutShort},
		{"interrupted after text", func(s *script) *script {
			return s.asst("a1", "u1", "m1", "", text("Working on")).user("i1", "a1", []obj{text("[Request interrupted by user]")})
		}, memory.TurnCutShort},
		{"interrupted tool", func(s *script) *script {
			return s.asst("a1", "u1", "m1", "", toolUse("t1", "Bash", obj{"command": "sleep 99"})).
				user("r1", "a1", []obj{toolResult("t1", "[Request interrupted by user for tool use]", true)})
		}, memory.TurnCutShort},
		{"api error, no answer", func(s *script) *script {
			return s.add(obj{"type": "system", "subtype": "api_error", "uuid": "e1", "parentUuid": "u1", "level": "error"})
		}, memory.TurnFailed},
		{"api error after a call", func(s *script) *script {
			return s.asst("a1", "u1", "m1", "", toolUse("t1", "Bash", obj{"command": "ls"})).
				user("r1", "a1", []obj{toolResult("t1", "a b", false)}).
				add(obj{"type": "system", "subtype": "api_error", "uuid": "e1", "parentUuid": "r1"})
		}, memory.TurnFailed},
		{"api error message", func(s *script) *script {
			return s.add(obj{"type": "assistant", "uuid": "a1", "parentUuid": "u1", "isApiErrorMessage": true,
				"message": obj{"id": "x", "model": "<synthetic>", "content": []obj{text("API Error: 500")}}})
		}, memory.TurnFailed},
		{"api error then answer", func(s *script) *script {
			return s.add(obj{"type": "system", "subtype": "api_error", "uuid": "e1", "parentUuid": "u1"}).
				asst("a1", "e1", "m1", "end_turn", text("done"))
		}, memory.TurnCompleted},
		{"interrupted by the next prompt", func(s *script) *script {
			return s.asst("a1", "u1", "m1", "", text("Working on")).
				user("u2", "a1", []obj{text("[Request interrupted by user]"), text("do this instead")})
		}, memory.TurnCutShort},
		{"synthetic reply is no answer", func(s *script) *script {
			return s.user("i1", "u1", []obj{text("[Request interrupted by user]")}).
				add(obj{"type": "assistant", "uuid": "a1", "parentUuid": "i1",
					"message": obj{"id": "x", "model": "<synthetic>", "content": []obj{text("No response requested.")}}})
		}, memory.TurnCutShort},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := c.tail(newScript(t).user("u1", "", "do it")).parse()
			turn := onlySession(t, res).Turns[0]
			if turn.Status != c.want {
				t.Errorf("status %s, want %s", turn.Status, c.want)
			}
			if strings.Contains(turn.Outcome, "No response requested") || strings.Contains(turn.Outcome, "API Error") {
				t.Errorf("outcome %q is harness text", turn.Outcome)
			}
		})
	}
}

func TestHarnessNoise(t *testing.T) {
	res := newScript(t).
		user("c0", "", "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>").
		user("c1", "c0", "<local-command-stdout>Set model to opus</local-command-stdout>").
		user("m1", "c1", "<system-reminder>hook context</system-reminder>", obj{"isMeta": true}).
		user("u1", "m1", "<system-reminder>reminder</system-reminder>fix the tests").
		asst("a1", "u1", "m1", "end_turn", text("fixed")).
		user("n1", "a1", "<task-notification><status>completed</status></task-notification>").
		user("c2", "n1", "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>the parser</command-args>").
		user("x1", "c2", []obj{text("Review the code carefully.")}, obj{"isMeta": true}).
		asst("a2", "x1", "m2", "end_turn", text("Looks fine.")).
		parse()
	s := onlySession(t, res)
	if got := requests(s); !reflect.DeepEqual(got, []string{"fix the tests", "/review the parser"}) {
		t.Fatalf("requests %q", got)
	}
	if s.Turns[1].Outcome != "Looks fine." || s.Turns[1].Key != "c2" {
		t.Errorf("command turn %+v", s.Turns[1])
	}
	out, _ := json.Marshal(res)
	for _, noise := range []string{"Set model", "hook context", "reminder", "completed</status>", "Review the code carefully"} {
		if bytes.Contains(out, []byte(noise)) {
			t.Errorf("noise %q survived", noise)
		}
	}
}

func TestStats(t *testing.T) {
	res := newScript(t).
		raw(`not json`).
		raw(``).
		raw(`{"type":"brand-new-record","uuid":"z1","sessionId":"s1"}`).
		raw(`{"type":"user","uuid":"q1","sessionId":"s1"}`).
		raw(`{"uuid":"q2"}`).
		raw(`{"type":"file-history-snapshot","messageId":"x","snapshot":{}}`).
		raw(`{"type":"queue-operation","operation":"enqueue","sessionId":"s1","content":"hi"}`).
		raw(`{"type":"progress","uuid":"p1","parentUuid":null,"sessionId":"s1","data":{"type":"hook_progress"}}`).
		raw(`{"type":"assistant","uuid":"q5","sessionId":"s1","message":{"id":"z"}}`).
		raw(`{"type":"x","uuid":"q3","text":"secret words here"}`).
		raw(`{"type":"has a secret in it","uuid":"q4"}`).
		user("u1", "p1", "hello").
		asst("a1", "u1", "m1", "end_turn", text("hi")).
		parse()
	want := map[string]int{
		"invalid json":                   1,
		"unknown type: brand-new-record": 1,
		"missing message":                1,
		"missing type":                   1,
		"missing content":                1,
		"unknown type: x":                1,
		"unknown type: ?":                1,
	}
	if !reflect.DeepEqual(res.Stats.Skipped, want) || res.Stats.Lines != 13 {
		t.Fatalf("skipped %v lines %d", res.Stats.Skipped, res.Stats.Lines)
	}
	if len(onlySession(t, res).Turns) != 1 {
		t.Error("the good lines were not read")
	}
}

func TestProvenance(t *testing.T) {
	res := newScript(t).
		user("u1", "", []obj{text("what is in this screenshot?"), {"type": "image", "source": obj{"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}}).
		asst("a1", "u1", "m1", "end_turn", text("a cat")).
		user("u2", "a1", "compare with @src/app.go").
		asst("a2", "u2", "m2", "", toolUse("t1", "mcp__playwright__browser_navigate", obj{"url": "http://localhost"})).
		user("r2", "a2", []obj{toolResult("t1", "page", false)}).
		asst("a3", "r2", "m3", "end_turn",
			obj{"type": "server_tool_use", "id": "srv1", "name": "web_search", "input": obj{"query": "go"}},
			obj{"type": "web_search_tool_result", "tool_use_id": "srv1", "content": []obj{{"type": "web_search_result", "title": "Go", "url": "https://go.dev"}}},
			text("done")).
		user("u3", "a3", "thanks").
		add(obj{"type": "attachment", "uuid": "f1", "parentUuid": "u3", "attachment": obj{"type": "file", "filename": "x.go", "content": "package x"}}).
		asst("a4", "f1", "m4", "end_turn", text("ok")).
		parse()
	s := onlySession(t, res)
	want := []memory.Provenance{
		memory.FromImages,
		memory.FromFiles | memory.FromMCP | memory.FromBrowser | memory.FromProviderTools,
		memory.FromFiles,
	}
	for i, w := range want {
		if s.Turns[i].Flags != w {
			t.Errorf("turn %d flags %q, want %q", i, s.Turns[i].Flags, w)
		}
	}
	if p := s.Turns[0].Parts[1]; p.Text != imagePlaceholder {
		t.Errorf("image part %q", p.Text)
	}
	if p := s.Turns[1].Parts[4]; p.Kind != memory.KindToolResult || p.Text != "Go https://go.dev" || p.Tool != "web_search" {
		t.Errorf("server result part %+v", p)
	}
}

func TestReferencedChats(t *testing.T) {
	sc := newScript(t)
	sc.session = "old"
	sc.user("u1", "", "earlier question").asst("a1", "u1", "m1", "end_turn", text("earlier answer"))
	sc.session = "new"
	res := sc.user("u2", "a1", "follow-up").
		asst("a2", "u2", "m2", "end_turn", text("answer")).
		user("u3", "a2", "more").
		asst("a3", "u3", "m3", "end_turn", text("more answer")).
		parse()
	s := onlySession(t, res)
	if s.ExternalID != "new" {
		t.Errorf("external id %q", s.ExternalID)
	}
	got := []memory.Provenance{s.Turns[0].Flags, s.Turns[1].Flags, s.Turns[2].Flags}
	want := []memory.Provenance{memory.FromReferencedChats, memory.FromReferencedChats, 0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("flags %v, want %v", got, want)
	}
}

func TestTitles(t *testing.T) {
	res := newScript(t).
		raw(`{"type":"summary","summary":"Another session","leafUuid":"elsewhere"}`).
		raw(`{"type":"summary","summary":"Fixing the build","leafUuid":"a1"}`).
		user("u1", "", "fix").
		asst("a1", "u1", "m1", "end_turn", text("fixed")).
		parse()
	s := onlySession(t, res)
	if s.Title != "Fixing the build" || s.Summary != "Fixing the build" {
		t.Errorf("title %q summary %q", s.Title, s.Summary)
	}
	res = newScript(t).
		user("u1", "", "fix").
		raw(`{"type":"ai-title","aiTitle":"First guess","sessionId":"s1"}`).
		raw(`{"type":"ai-title","aiTitle":"Build fix","sessionId":"s1"}`).
		asst("a1", "u1", "m1", "end_turn", text("fixed")).
		parse()
	if s := onlySession(t, res); s.Title != "Build fix" {
		t.Errorf("title %q", s.Title)
	}
	res = newScript(t).
		raw(`{"type":"ai-title","aiTitle":"Build fix","sessionId":"s1"}`).
		raw(`{"type":"custom-title","customTitle":"mine","sessionId":"s1"}`).
		user("u1", "", "fix").
		parse()
	if s := onlySession(t, res); s.Title != "mine" {
		t.Errorf("title %q", s.Title)
	}
}

func TestSidechainsInOneStream(t *testing.T) {
	res := newScript(t).
		user("u1", "", "main question").
		asst("a1", "u1", "m1", "end_turn", text("main answer")).
		with(obj{"isSidechain": true, "agentId": "w"}).
		user("w1", "", "Warmup").
		asst("w2", "w1", "mw", "end_turn", text("ready")).
		with(obj{"isSidechain": true, "agentId": "k9"}).
		user("k1", "", "find the bug").
		asst("k2", "k1", "mk", "end_turn", text("found it")).
		parse()
	if len(res.Sessions) != 2 {
		t.Fatalf("got %d sessions", len(res.Sessions))
	}
	if got := requests(res.Sessions[0]); !reflect.DeepEqual(got, []string{"main question"}) {
		t.Errorf("main requests %q", got)
	}
	sub := res.Sessions[1]
	if !sub.Subagent || sub.ExternalID != "s1/agent-k9" || sub.ParentExternalID != "s1" || len(sub.Turns) != 1 || sub.Turns[0].Outcome != "found it" {
		t.Errorf("subagent %+v", sub)
	}
}
