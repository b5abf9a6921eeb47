package opencode

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestTurnStatus(t *testing.T) {
	err := func(name string) obj { return obj{"error": obj{"name": name, "data": obj{"message": "m"}}} }
	cases := []struct {
		name string
		e    *export
		want memory.TurnStatus
	}{
		{"stop", newExport("s").user("u", text("q")).answer("a", nil, text("done")), memory.TurnCompleted},
		{"no finish recorded (older versions)", newExport("s").user("u", text("q")).answer("a", obj{"finish": nil}, text("done")), memory.TurnCompleted},
		{"stopped after tool calls", newExport("s").user("u", text("q")).answer("a", obj{"finish": "tool-calls"}), memory.TurnCutShort},
		{"output length", newExport("s").user("u", text("q")).answer("a", obj{"finish": "length"}, text("par")), memory.TurnCutShort},
		{"unknown finish", newExport("s").user("u", text("q")).answer("a", obj{"finish": "unknown"}, text("x")), memory.TurnCutShort},
		{"aborted", newExport("s").user("u", text("q")).answer("a", err("MessageAbortedError")), memory.TurnCutShort},
		{"output length error", newExport("s").user("u", text("q")).answer("a", err("MessageOutputLengthError")), memory.TurnCutShort},
		{"content filter error", newExport("s").user("u", text("q")).answer("a", err("ContentFilterError")), memory.TurnRefused},
		{"content filter finish", newExport("s").user("u", text("q")).answer("a", obj{"finish": "content-filter"}), memory.TurnRefused},
		{"api error", newExport("s").user("u", text("q")).answer("a", err("APIError")), memory.TurnFailed},
		{"auth error", newExport("s").user("u", text("q")).answer("a", err("ProviderAuthError")), memory.TurnFailed},
		{"error finish", newExport("s").user("u", text("q")).answer("a", obj{"finish": "error"}), memory.TurnFailed},
		{"no completion time", newExport("s").user("u", text("q")).answer("a", obj{"completed": nil, "finish": nil}, text("part")), memory.TurnCutShort},
		{"never answered", newExport("s").user("u", text("q")), memory.TurnCutShort},
		{"a retry after an error answered", newExport("s").user("u", text("q")).
			answer("a1", err("APIError")).answer("a2", nil, text("ok")), memory.TurnCompleted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := oneTurn(t, c.e).Status; got != c.want {
				t.Errorf("status = %s, want %s", got, c.want)
			}
		})
	}
}

func TestRequestAndOutcome(t *testing.T) {
	synthetic := obj{"type": "text", "text": "Called the Read tool with: secret file body", "synthetic": true}
	ignored := obj{"type": "text", "text": "ignored words", "ignored": true}
	e := newExport("s").
		user("u1", synthetic, text("first paragraph"), ignored, text("  second paragraph \n")).
		answer("a1", obj{"finish": "tool-calls"}, text("let me look"), tool("bash", "completed", obj{"command": "ls"}, "a\nb\n")).
		answer("a2", nil, text("final"), text("answer")).
		user("u2", text("next"))
	res := e.parse(t)
	turns := res.Sessions[0].Turns
	if len(turns) != 2 {
		t.Fatalf("turns = %d", len(turns))
	}
	first := turns[0]
	if first.Key != "u1" || first.Request != "first paragraph\n\nsecond paragraph" {
		t.Errorf("request = %q (key %q)", first.Request, first.Key)
	}
	if first.Outcome != "final\n\nanswer" {
		t.Errorf("outcome = %q", first.Outcome)
	}
	want := []string{"user/text", "user/text", "assistant/text", "assistant/tool_call/bash", "tool/tool_result/bash", "assistant/text", "assistant/text"}
	if k := partKinds(first); !slices.Equal(k, want) {
		t.Errorf("parts = %v", k)
	}
	for _, p := range first.Parts {
		if strings.Contains(p.Text, "secret file body") || strings.Contains(p.Text, "ignored words") {
			t.Errorf("synthetic or ignored text stored: %q", p.Text)
		}
	}
	if turns[1].Key != "u2" || turns[1].Status != memory.TurnCutShort || turns[1].Outcome != "" {
		t.Errorf("second turn = %+v", turns[1])
	}
}

// TestMarkerLeavesNoTrace: cairn's own block, wherever it shows up, is cut
// from every text and flags the turn.
func TestMarkerLeavesNoTrace(t *testing.T) {
	block := memory.MarkerOpen + "remembered: use tabs" + memory.MarkerClose
	cases := []struct {
		name string
		e    *export
	}{
		{"user text", newExport("s").user("u", text("do it "+block)).answer("a", nil, text("ok"))},
		{"synthetic part", newExport("s").user("u", text("do it"), obj{"type": "text", "text": block, "synthetic": true}).answer("a", nil, text("ok"))},
		{"assistant text", newExport("s").user("u", text("do it")).answer("a", nil, text("ok "+block))},
		{"tool input", newExport("s").user("u", text("do it")).answer("a", nil, tool("bash", "completed", obj{"command": "echo '" + block + "'"}, "x"), text("ok"))},
		{"tool output", newExport("s").user("u", text("do it")).answer("a", nil, tool("bash", "completed", obj{"command": "cat"}, block), text("ok"))},
		{"tool error", newExport("s").user("u", text("do it")).answer("a", nil, tool("bash", "error", obj{"command": "cat"}, block), text("ok"))},
		{"unclosed block", newExport("s").user("u", text("do it "+memory.MarkerOpen+"remembered: use tabs")).answer("a", nil, text("ok"))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			turn := oneTurn(t, c.e)
			if turn.Flags&memory.FromRecalledMemory == 0 {
				t.Errorf("flags = %v, want recalled_memory", turn.Flags)
			}
			all := turn.Request + turn.Outcome
			for _, p := range turn.Parts {
				all += p.Text
			}
			if strings.Contains(all, "use tabs") || strings.Contains(all, "cairn-memory") {
				t.Errorf("marker content survived: %q", all)
			}
			if turn.Request != "do it" {
				t.Errorf("request = %q", turn.Request)
			}
		})
	}
}

func TestProvenance(t *testing.T) {
	image := obj{"type": "file", "mime": "image/png", "filename": "shot.png", "url": "data:image/png;base64,iVBORw0KGgo="}
	pdf := obj{"type": "file", "mime": "application/pdf", "url": "file:///home/u/spec.pdf"}
	provider := tool("web_search", "completed", obj{"query": "go"}, "results")
	provider["metadata"] = obj{"providerExecuted": true}
	attach := tool("read", "completed", obj{"filePath": "/a.png"}, "Image read successfully")
	attach["state"].(obj)["attachments"] = []any{obj{"type": "file", "mime": "image/png", "url": "data:image/png;base64,AAAA"}}
	cases := []struct {
		name string
		part obj
		want memory.Provenance
		text string // the stored text of the part, when it matters
	}{
		{"bash", tool("bash", "completed", obj{"command": "ls"}, "x"), 0, ""},
		{"apply_patch is built in", tool("apply_patch", "completed", obj{"patchText": "p"}, "x"), 0, ""},
		{"read", tool("read", "completed", obj{"filePath": "/a"}, "x"), memory.FromFiles, ""},
		{"webfetch", tool("webfetch", "completed", obj{"url": "https://x"}, "x"), memory.FromBrowser, ""},
		{"websearch", tool("websearch", "completed", obj{"query": "x"}, "x"), memory.FromBrowser, ""},
		{"mcp tool", tool("notes_lookup", "completed", obj{"topic": "x"}, "x"), memory.FromMCP, ""},
		{"mcp browser", tool("playwright_browser_navigate", "completed", obj{"url": "x"}, "x"), memory.FromMCP | memory.FromBrowser, ""},
		{"provider executed", provider, memory.FromMCP | memory.FromProviderTools, ""},
		{"tool attachment", attach, memory.FromFiles | memory.FromImages, ""},
		{"image part", image, memory.FromFiles | memory.FromImages, "[image: shot.png]"},
		{"file from url", pdf, memory.FromFiles, "[file: spec.pdf]"},
		{"file with nothing", obj{"type": "file", "url": "data:text/plain;base64,aGk="}, memory.FromFiles, "[file]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			turn := oneTurn(t, newExport("s").user("u", text("q")).answer("a", nil, c.part, text("ok")))
			if turn.Flags != c.want {
				t.Errorf("flags = %v, want %v", turn.Flags, c.want)
			}
			if c.text != "" && turn.Parts[1].Text != c.text {
				t.Errorf("text = %q, want %q", turn.Parts[1].Text, c.text)
			}
			for _, p := range turn.Parts {
				if strings.Contains(p.Text, "base64") {
					t.Errorf("file content stored: %q", p.Text)
				}
			}
		})
	}
}

func TestToolStates(t *testing.T) {
	turn := oneTurn(t, newExport("s").user("u", text("q")).answer("a", nil,
		tool("bash", "pending", obj{}, nil),
		tool("bash", "running", obj{"command": "sleep 9"}, nil),
		tool("read", "error", obj{"filePath": "/nope"}, "File not found: /nope"),
		tool("grep", "completed", json.RawMessage(`{"pattern":"x","opts":{"n":2,"ci":true},"paths":["a","b"]}`), "a:1"),
		text("ok")))
	want := []string{"user/text", "assistant/tool_call/bash", "assistant/tool_call/bash",
		"assistant/tool_call/read", "tool/tool_result/read!", "assistant/tool_call/grep", "tool/tool_result/grep", "assistant/text"}
	if k := partKinds(turn); !slices.Equal(k, want) {
		t.Fatalf("parts = %v", k)
	}
	if turn.Parts[4].Text != "File not found: /nope" {
		t.Errorf("error text = %q", turn.Parts[4].Text)
	}
	if want := "pattern: x\nopts:\n  n: 2\n  ci: true\npaths:\n  - a\n  - b"; turn.Parts[5].Text != want {
		t.Errorf("grep input = %q, want %q", turn.Parts[5].Text, want)
	}
}

func TestPartTypes(t *testing.T) {
	summary := newExport("s").user("u", obj{"type": "compaction", "auto": true}).
		answer("a", obj{"summary": true, "mode": "compaction"}, text("what happened so far"))
	turn := oneTurn(t, summary)
	if k := partKinds(turn); !slices.Equal(k, []string{"assistant/summary"}) || turn.Outcome != "" || turn.Request != "" {
		t.Errorf("compaction turn = %v, outcome %q", k, turn.Outcome)
	}

	res := newExport("s").user("u", text("q"), obj{"type": "agent", "name": "explore"},
		obj{"type": "subtask", "agent": "general", "description": "look around", "prompt": "list files"}).
		answer("a", nil,
			obj{"type": "step-start"}, obj{"type": "reasoning", "text": "thinking hard"},
			obj{"type": "hologram", "text": "?"}, obj{"type": "weird type with spaces"}, obj{"text": "no type"},
			obj{"type": "patch", "hash": "h", "files": []any{"a"}}, obj{"type": "snapshot", "snapshot": "h"},
			obj{"type": "retry", "attempt": 1}, text("done"), obj{"type": "step-finish", "reason": "stop"}).parse(t)
	turn = res.Sessions[0].Turns[0]
	want := []string{"user/text", "user/subagent/general", "assistant/text"}
	if k := partKinds(turn); !slices.Equal(k, want) {
		t.Errorf("parts = %v, want %v", k, want)
	}
	if turn.Parts[1].Text != "look around\n\nlist files" || turn.Parts[1].Tool != "general" {
		t.Errorf("subtask = %+v", turn.Parts[1])
	}
	skipped := map[string]int{"unknown part type: hologram": 1, "unknown part type": 1, "part without type": 1}
	if !reflect.DeepEqual(res.Stats.Skipped, skipped) {
		t.Errorf("skipped = %v, want %v", res.Stats.Skipped, skipped)
	}
	for _, p := range turn.Parts {
		if strings.Contains(p.Text, "thinking hard") {
			t.Error("reasoning stored")
		}
	}
}

func TestSessionFields(t *testing.T) {
	e := newExport("ses_child")
	e.info["parentID"] = "ses_parent"
	e.info["directory"] = ""
	e.info["model"] = obj{"id": "session-model", "providerID": "p"}
	// An answer before any prompt, then a normal turn with no assistant
	// model id.
	e.answer("a0", obj{"modelID": nil}, text("hello first")).user("u1", text("q")).answer("a1", obj{"modelID": nil}, text("a"))
	s := e.parse(t).Sessions[0]
	if !s.Subagent || s.ParentExternalID != "ses_parent" || s.Cwd != "/work/app" || s.Model != "session-model" {
		t.Errorf("session = %+v", s)
	}
	if len(s.Turns) != 2 || s.Turns[0].Key != "a0" || s.Turns[0].Request != "" || s.Turns[0].Outcome != "hello first" {
		t.Fatalf("turns = %+v", s.Turns)
	}
	if s.Turns[1].Model != "m-user" {
		t.Errorf("turn model = %q, want the user message's", s.Turns[1].Model)
	}
	if s.StartedAt.IsZero() || !s.EndedAt.After(s.StartedAt) {
		t.Errorf("times %v .. %v", s.StartedAt, s.EndedAt)
	}
}

func TestBrokenExports(t *testing.T) {
	for _, in := range []string{"", "   ", "[]", "null", "42", `"x"`, "not json", "\x00\x01"} {
		res, err := ParseExport(strings.NewReader(in))
		if memory.ErrorCode(err) != memory.CodeInvalid || len(res.Sessions) != 0 {
			t.Errorf("%q: err %v, %d sessions", in, err, len(res.Sessions))
		}
	}
	cases := []struct {
		name     string
		in       string
		sessions int
		turns    int
		skipped  map[string]int
	}{
		{"empty object", `{}`, 0, 0, nil},
		{"no messages", `{"info":{"id":"s"}}`, 1, 0, nil},
		{"messages not a list", `{"info":{"id":"s"},"messages":{"a":[1,{"b":2}]}}`, 1, 0, map[string]int{"messages is not a list": 1}},
		{"message not an object", `{"info":{"id":"s"},"messages":["x",{"info":{"id":"u","role":"user"},"parts":[]}]}`, 1, 1, map[string]int{"invalid message": 1}},
		{"info not an object", `{"info":{"id":"s"},"messages":[{"info":7,"parts":[]}]}`, 1, 0, map[string]int{"invalid message": 1}},
		{"no role", `{"info":{"id":"s"},"messages":[{"info":{"id":"u"},"parts":[]}]}`, 1, 0, map[string]int{"message without role": 1}},
		{"odd role", `{"info":{"id":"s"},"messages":[{"info":{"id":"u","role":"system"},"parts":[]}]}`, 1, 0, map[string]int{"message with unknown role": 1}},
		{"wrong field types kept", `{"info":{"id":"s","title":5},"messages":[{"info":{"id":"u","role":"user","time":"x"},"parts":[{"type":"text","text":"hi","synthetic":"no"}]}]}`,
			1, 1, map[string]int{"session field of wrong type": 1, "message field of wrong type": 1, "part field of wrong type": 1}},
		{"part not an object", `{"info":{"id":"s"},"messages":[{"info":{"id":"u","role":"user"},"parts":[1,{"type":"text","text":"hi"}]}]}`, 1, 1, map[string]int{"invalid part": 1}},
		{"id from the messages", `{"info":{},"messages":[{"info":{"id":"u","sessionID":"ses_x","role":"user"},"parts":[]}]}`, 1, 1, nil},
		{"no id anywhere", `{"messages":[{"info":{"id":"u","role":"user"},"parts":[]}]}`, 0, 0, map[string]int{"session without id": 1}},
		{"user without id", `{"info":{"id":"s"},"messages":[{"info":{"role":"user"},"parts":[]}]}`, 1, 1, map[string]int{"message without id": 1}},
		{"cut off", `{"info":{"id":"s"},"messages":[{"info":{"id":"u","role":"user"},"parts":[]},{"info":{"id":"a","ro`, 1, 1, map[string]int{"export cut off": 1}},
		{"trailing junk", `{"info":{"id":"s"},"messages":[]} {"more":1}`, 1, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := ParseExport(strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			turns := 0
			for _, s := range res.Sessions {
				turns += len(s.Turns)
			}
			if len(res.Sessions) != c.sessions || turns != c.turns {
				t.Errorf("sessions %d turns %d, want %d %d", len(res.Sessions), turns, c.sessions, c.turns)
			}
			if !reflect.DeepEqual(res.Stats.Skipped, c.skipped) {
				t.Errorf("skipped = %v, want %v", res.Stats.Skipped, c.skipped)
			}
		})
	}
}

// TestTruncatedRealExport: an export cut anywhere keeps the messages
// before the cut, says it is pending, and never fails or panics.
func TestTruncatedRealExport(t *testing.T) {
	full, err := os.ReadFile("testdata/real/tools-abort.export.json")
	if err != nil {
		t.Fatal(err)
	}
	whole := parseFile(t, "real/tools-abort.export.json").Sessions[0]
	prevTurns := 0
	for cut := 1; cut < len(full)-1; cut += 61 {
		res, err := ParseExport(bytes.NewReader(full[:cut]))
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if !res.Stats.Pending || res.Stats.Consumed > int64(cut) {
			t.Fatalf("cut %d: stats %+v", cut, res.Stats)
		}
		if len(res.Sessions) == 0 {
			continue
		}
		s := res.Sessions[0]
		if len(s.Turns) < prevTurns || len(s.Turns) > len(whole.Turns) {
			t.Fatalf("cut %d: %d turns after %d", cut, len(s.Turns), prevTurns)
		}
		prevTurns = len(s.Turns)
		for i, turn := range s.Turns {
			if turn.Key != whole.Turns[i].Key || turn.Request != whole.Turns[i].Request {
				t.Fatalf("cut %d: turn %d differs", cut, i)
			}
		}
	}
	if prevTurns != len(whole.Turns) {
		t.Errorf("late cuts kept %d turns, want %d", prevTurns, len(whole.Turns))
	}
}

func TestSniff(t *testing.T) {
	for _, fx := range realFixtures {
		head, err := os.ReadFile("testdata/" + fx.file)
		if err != nil {
			t.Fatal(err)
		}
		if !Sniff(head[:min(len(head), 64)]) {
			t.Errorf("%s not recognized", fx.file)
		}
	}
	cases := map[string]bool{
		`{"info":{"id":"ses_1"}`:                     true,
		"\ufeff\n  {\n  \"messages\": [":             true,
		`{"type":"user","sessionId":"x"}`:            false, // a Claude Code line
		`{"timestamp":"2026","type":"session_meta"}`: false, // a Codex line
		`[{"id":"ses_1"}]`:                           false, // a session list
		``:                                           false,
		`{`:                                          false,
		`{"inf`:                                      false,
		`SQLite format 3`:                            false,
	}
	for in, want := range cases {
		if got := Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%q) = %v", in, got)
		}
	}
}
