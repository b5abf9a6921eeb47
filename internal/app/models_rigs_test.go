package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-memory/cairn/internal/config"
)

// A scripted model, told once and played through each provider's real
// wire protocol: a step is what the model answers, heard is what it was
// sent, read back from the protocol (so a rig that lost a tool result or
// an error flag shows in the test).

// step is one scripted answer.
type step struct {
	Text    string
	Calls   []stepCall
	Refuse  bool // the provider's refusal signal (codex has none: see the codex rig)
	Hang    bool // never answer; the call's timeout must end it
	In, Out int
	CostUSD float64 // the claude CLI reports its own cost
}

type stepCall struct {
	Name string
	Args map[string]any
}

// heard is one request as the model received it.
type heard struct {
	Prompt  string        // everything user-side: the first user message (APIs) or the whole prompt (CLIs)
	Last    string        // the last user message
	Results []heardResult // tool results the request carried at its end
	Preset  string        // CAIRN_PRESET the CLI ran under ("" for APIs)
}

type heardResult struct {
	Name, Text string
	IsError    bool
}

// scripted plays a script and keeps what it heard.
type scripted struct {
	mu    sync.Mutex
	heard []heard
	play  func(n int, h heard) step
}

func (s *scripted) next(h heard) step {
	s.mu.Lock()
	n := len(s.heard)
	s.heard = append(s.heard, h)
	s.mu.Unlock()
	return s.play(n, h)
}

func (s *scripted) all() []heard {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]heard(nil), s.heard...)
}

// rig is one provider: it starts a scripted model speaking the
// provider's protocol and points the configuration at it.
type rig struct {
	provider string
	model    string // the configured model
	// refusal says whether the protocol carries a refusal signal.
	refusal bool
	start   func(t *testing.T, s *scripted, mc *config.Models)
}

func rigs() []rig {
	return []rig{
		{provider: config.ProviderOpenAI, model: "gpt-4.1", refusal: true, start: startChatCompletions},
		{provider: config.ProviderAnthropic, model: "claude-sonnet-4-5", refusal: true, start: startMessages},
		{provider: config.ProviderClaudeCLI, model: "sonnet", refusal: true, start: func(t *testing.T, s *scripted, mc *config.Models) {
			mc.ClaudeCommand = startCLI(t, s, "claude")
		}},
		{provider: config.ProviderCodexCLI, model: "gpt-5-codex", start: func(t *testing.T, s *scripted, mc *config.Models) {
			mc.CodexCommand = startCLI(t, s, "codex")
			// codex exec names no model in its events and has no built-in
			// price: the table gets one, as a user would add it.
			mc.Prices = "gpt-5-codex=1.25/10"
		}},
	}
}

// loopback serves h on 127.0.0.1.
func loopback(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// postJSON decodes a POST to path, or answers 404/400.
func postJSON(w http.ResponseWriter, r *http.Request, path string) (map[string]any, bool) {
	if r.Method != http.MethodPost || r.URL.Path != path {
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return nil, false
	}
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		http.Error(w, "not JSON", http.StatusBadRequest)
		return nil, false
	}
	return body, true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func argsJSON(a map[string]any) string {
	b, _ := json.Marshal(a)
	return string(b)
}

// startChatCompletions is an OpenAI-compatible /v1/chat/completions.
func startChatCompletions(t *testing.T, s *scripted, mc *config.Models) {
	url := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		body, ok := postJSON(w, r, "/v1/chat/completions")
		if !ok {
			return
		}
		var h heard
		names := map[string]string{} // tool_call_id → function name
		msgs, _ := body["messages"].([]any)
		var tail []heardResult
		for _, x := range msgs {
			m, _ := x.(map[string]any)
			switch m["role"] {
			case "user":
				c, _ := m["content"].(string)
				if h.Prompt == "" {
					h.Prompt = c
				}
				h.Last, tail = c, nil
			case "assistant":
				tail = nil
				calls, _ := m["tool_calls"].([]any)
				for _, c := range calls {
					cm, _ := c.(map[string]any)
					fn, _ := cm["function"].(map[string]any)
					id, _ := cm["id"].(string)
					names[id], _ = fn["name"].(string)
				}
			case "tool":
				// Chat completions has no error flag: cairn says "error: ".
				c, _ := m["content"].(string)
				id, _ := m["tool_call_id"].(string)
				tail = append(tail, heardResult{Name: names[id], Text: c, IsError: strings.HasPrefix(c, "error: ")})
			}
		}
		h.Results = tail
		st := s.next(h)
		if st.Hang {
			<-r.Context().Done()
			return
		}
		msg := map[string]any{"role": "assistant", "content": st.Text}
		finish := "stop"
		switch {
		case st.Refuse:
			msg["content"], msg["refusal"] = nil, st.Text
		case len(st.Calls) > 0:
			var tcs []any
			for i, c := range st.Calls {
				tcs = append(tcs, map[string]any{"id": fmt.Sprintf("call_%d_%d", len(s.all()), i), "type": "function",
					"function": map[string]any{"name": c.Name, "arguments": argsJSON(c.Args)}})
			}
			msg["tool_calls"], finish = tcs, "tool_calls"
			if st.Text == "" {
				msg["content"] = nil
			}
		}
		writeJSON(w, map[string]any{"id": "chatcmpl-x", "object": "chat.completion", "created": 1, "model": "gpt-4.1-2025-04-14",
			"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "logprobs": nil, "message": msg}},
			"usage":   map[string]any{"prompt_tokens": st.In, "completion_tokens": st.Out, "total_tokens": st.In + st.Out}})
	})
	mc.BaseURL = url + "/v1"
}

// startMessages is the Anthropic Messages API.
func startMessages(t *testing.T, s *scripted, mc *config.Models) {
	url := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		body, ok := postJSON(w, r, "/v1/messages")
		if !ok {
			return
		}
		// The SDK sends the key as a bearer token; x-api-key is the older form.
		key := r.Header.Get("X-Api-Key")
		if key == "" {
			key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
		if key != "sk-ant-test" {
			w.WriteHeader(http.StatusUnauthorized)
			writeJSON(w, map[string]any{"type": "error", "error": map[string]any{"type": "authentication_error", "message": "bad key"}})
			return
		}
		var h heard
		names := map[string]string{}
		msgs, _ := body["messages"].([]any)
		for _, x := range msgs {
			m, _ := x.(map[string]any)
			blocks, _ := m["content"].([]any)
			var text strings.Builder
			var results []heardResult
			for _, b := range blocks {
				bm, _ := b.(map[string]any)
				switch bm["type"] {
				case "text":
					s, _ := bm["text"].(string)
					text.WriteString(s)
				case "tool_use":
					id, _ := bm["id"].(string)
					names[id], _ = bm["name"].(string)
				case "tool_result":
					id, _ := bm["tool_use_id"].(string)
					results = append(results, heardResult{Name: names[id], Text: resultText(bm), IsError: bm["is_error"] == true})
				}
			}
			if m["role"] != "user" {
				continue
			}
			h.Results = results
			if text.Len() > 0 {
				if h.Prompt == "" {
					h.Prompt = text.String()
				}
				h.Last = text.String()
			}
		}
		st := s.next(h)
		if st.Hang {
			<-r.Context().Done()
			return
		}
		var content []any
		if st.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": st.Text})
		}
		stop := "end_turn"
		for i, c := range st.Calls {
			content = append(content, toolUse(fmt.Sprintf("toolu_%d_%d", len(s.all()), i), c.Name, c.Args))
			stop = "tool_use"
		}
		if st.Refuse {
			stop = "refusal"
		}
		if content == nil {
			content = []any{}
		}
		rep := anthropicReply(content, stop)
		rep["usage"] = map[string]any{"input_tokens": st.In, "output_tokens": st.Out}
		writeJSON(w, rep)
	})
	mc.AnthropicURL = url
}

// cliRequest is what the scripted executable sends the test: its
// arguments, its prompt and the preset it ran under.
type cliRequest struct {
	Kind   string   `json:"kind"`
	Args   []string `json:"args"`
	Stdin  string   `json:"stdin"`
	Preset string   `json:"preset"`
}

// cliReply is what the executable prints and how it exits.
type cliReply struct {
	Stdout string `json:"stdout"`
	Exit   int    `json:"exit"`
}

// startCLI writes an executable standing in for a CLI: it runs this test
// binary as TestScriptedCLIProcess, which sends its arguments and stdin
// to a loopback server and prints, in the CLI's real output format, what
// the script answers. It returns the executable's path.
func startCLI(t *testing.T, s *scripted, kind string) string {
	t.Helper()
	url := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		var req cliRequest
		if b, _ := io.ReadAll(r.Body); json.Unmarshal(b, &req) != nil || req.Kind != kind {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		h := cliHeard(req.Stdin)
		h.Preset = req.Preset
		st := s.next(h)
		if st.Hang {
			<-r.Context().Done()
			return
		}
		writeJSON(w, cliReply{Stdout: cliOutput(kind, st)})
	})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CAIRN_TEST_CLI_SCRIPT", url)
	cmd := filepath.Join(t.TempDir(), kind)
	script := fmt.Sprintf("#!/bin/sh\nCAIRN_TEST_CLI_KIND=%s exec '%s' -test.run='^TestScriptedCLIProcess$' -- \"$@\"\n", kind, self)
	if err := os.WriteFile(cmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// TestScriptedCLIProcess is the scripted executable's body; run by the
// test itself it does nothing.
func TestScriptedCLIProcess(t *testing.T) {
	kind, url := os.Getenv("CAIRN_TEST_CLI_KIND"), os.Getenv("CAIRN_TEST_CLI_SCRIPT")
	if kind == "" || url == "" {
		return
	}
	in, _ := io.ReadAll(os.Stdin)
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	b, _ := json.Marshal(cliRequest{Kind: kind, Args: args, Stdin: string(in), Preset: os.Getenv("CAIRN_PRESET")})
	resp, err := http.Post(url+"/cli", "application/json", bytes.NewReader(b))
	if err != nil {
		fmt.Fprintln(os.Stderr, kind+": the script is gone:", err)
		os.Exit(3)
	}
	var rep cliReply
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		fmt.Fprintln(os.Stderr, kind+": bad script reply:", err)
		os.Exit(3)
	}
	os.Stdout.WriteString(rep.Stdout)
	os.Exit(rep.Exit)
}

var cliResultHeader = regexp.MustCompile(`(?m)^=== (result|error) of (\S+) \((\S+)\) ===\n`)

// cliHeard reads a CLI prompt the way the model would: the conversation
// rendered as text.
func cliHeard(prompt string) heard {
	h := heard{Prompt: prompt}
	if i := strings.LastIndex(prompt, "=== user ===\n"); i >= 0 {
		last := prompt[i+len("=== user ===\n"):]
		if j := strings.Index(last, "\n=== "); j >= 0 {
			last = last[:j]
		}
		h.Last = strings.TrimSpace(last)
	}
	tail := prompt
	if i := strings.LastIndex(prompt, "=== you (earlier) ==="); i >= 0 {
		tail = prompt[i:]
	} else {
		return h
	}
	locs := cliResultHeader.FindAllStringSubmatchIndex(tail, -1)
	for k, l := range locs {
		end := len(tail)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		body := tail[l[1]:end]
		if j := strings.Index(body, "\nAnswer with ONLY"); j >= 0 {
			body = body[:j]
		}
		h.Results = append(h.Results, heardResult{Name: tail[l[4]:l[5]], Text: strings.TrimSpace(body), IsError: tail[l[2]:l[3]] == "error"})
	}
	return h
}

// cliOutput prints a step as claude -p --output-format json or codex exec
// --json would. Tool calls are the JSON object the prompt asks for.
func cliOutput(kind string, st step) string {
	text := st.Text
	if len(st.Calls) > 0 {
		var calls []any
		for _, c := range st.Calls {
			calls = append(calls, map[string]any{"name": c.Name, "arguments": c.Args})
		}
		b, _ := json.Marshal(map[string]any{"tool_calls": calls})
		text = string(b)
	}
	if kind == "claude" {
		stop := "end_turn"
		cost := st.CostUSD
		if cost == 0 { // the CLI always reports one: sonnet's list price
			cost = (float64(st.In)*3 + float64(st.Out)*15) / 1e6
		}
		if st.Refuse {
			stop = "refusal"
		}
		b, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": text,
			"stop_reason": stop, "total_cost_usd": cost, "session_id": "x",
			"usage":      map[string]any{"input_tokens": st.In, "output_tokens": st.Out},
			"modelUsage": map[string]any{"claude-sonnet-4-5-20250929": map[string]any{}}})
		return string(b) + "\n"
	}
	// codex exec --json: no refusal event exists; a refusal is words.
	item, _ := json.Marshal(map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_1", "type": "agent_message", "text": text}})
	usage, _ := json.Marshal(map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": st.In, "cached_input_tokens": 0, "output_tokens": st.Out}})
	return `{"type":"thread.started","thread_id":"t"}` + "\n" + `{"type":"turn.started"}` + "\n" + string(item) + "\n" + string(usage) + "\n"
}
