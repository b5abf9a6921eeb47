package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
)

// script is a chat-completions server on 127.0.0.1: each request gets the
// next answer, and every request body is kept.
type script struct {
	mu      sync.Mutex
	answers []func(w http.ResponseWriter, r *http.Request)
	bodies  []map[string]any
	auth    []string
}

func newScript(t *testing.T, answers ...func(w http.ResponseWriter, r *http.Request)) (*script, string) {
	t.Helper()
	s := &script{answers: answers}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: s}}
	srv.Start()
	t.Cleanup(srv.Close)
	return s, srv.URL + "/v1"
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	var next func(w http.ResponseWriter, r *http.Request)
	if len(s.answers) > 0 {
		next, s.answers = s.answers[0], s.answers[1:]
	}
	s.mu.Unlock()
	if next == nil {
		http.Error(w, `{"error":{"message":"script ran out","type":"test"}}`, http.StatusInternalServerError)
		return
	}
	next(w, r)
}

// completion answers with one choice.
func completion(message map[string]any, finish string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-test-2026",
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish, "logprobs": nil}},
			"usage":   map[string]any{"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
		})
	}
}

func TestToolCallsRoundTrip(t *testing.T) {
	s, url := newScript(t,
		completion(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": "call_7", "type": "function", "function": map[string]any{"name": "read_file", "arguments": `{"path":"MEMORY.md"}`},
		}}}, "tool_calls"),
		completion(map[string]any{"role": "assistant", "content": "done"}, "stop"),
	)
	c := New(Options{BaseURL: url, APIKey: "sk-test", Model: "gpt-test"})
	req := model.Request{System: "sys", MaxTokens: 100, Tools: []model.Tool{{Name: "read_file", Description: "read",
		Params: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}},
		Messages: []model.Message{{Role: model.RoleUser, Text: "go"}}}
	r1, err := c.Complete(context.Background(), req)
	if err != nil || r1.Stop != model.StopTools || len(r1.Calls) != 1 || r1.Calls[0].Name != "read_file" ||
		string(r1.Calls[0].Args) != `{"path":"MEMORY.md"}` || r1.Usage.In != 120 || r1.Usage.Out != 30 || r1.Model != "gpt-test-2026" {
		t.Fatalf("first answer %+v %v", r1, err)
	}
	req.Messages = append(req.Messages, model.Message{Role: model.RoleAssistant, Calls: r1.Calls},
		model.Message{Role: model.RoleTool, Results: []model.Result{{CallID: "call_7", Name: "read_file", Text: "# MEMORY"}}})
	r2, err := c.Complete(context.Background(), req)
	if err != nil || r2.Stop != model.StopEnd || r2.Text != "done" {
		t.Fatalf("second answer %+v %v", r2, err)
	}
	// What went over the wire: the system message first, the tool, the
	// assistant's call echoed back and the tool result tied to its id.
	b := s.bodies[1]
	msgs := b["messages"].([]any)
	if len(msgs) != 4 || msgs[0].(map[string]any)["role"] != "system" {
		t.Fatalf("messages %v", msgs)
	}
	asst := msgs[2].(map[string]any)
	if calls := asst["tool_calls"].([]any); calls[0].(map[string]any)["id"] != "call_7" {
		t.Fatalf("assistant message %v", asst)
	}
	tool := msgs[3].(map[string]any)
	if tool["role"] != "tool" || tool["tool_call_id"] != "call_7" || tool["content"] != "# MEMORY" {
		t.Fatalf("tool message %v", tool)
	}
	if tools := b["tools"].([]any); tools[0].(map[string]any)["function"].(map[string]any)["name"] != "read_file" {
		t.Fatalf("tools %v", b["tools"])
	}
	if b["max_tokens"] != float64(100) || s.auth[0] != "Bearer sk-test" {
		t.Fatalf("max_tokens %v, auth %q", b["max_tokens"], s.auth[0])
	}
}

func TestStructuredOutputAsksForTheSchema(t *testing.T) {
	s, url := newScript(t, completion(map[string]any{"role": "assistant", "content": `{"facts":[]}`}, "stop"))
	c := New(Options{BaseURL: url, Model: "m"})
	_, err := c.Complete(context.Background(), model.Request{Output: &model.Schema{Name: "turn_facts",
		Schema: map[string]any{"type": "object"}}, Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	rf := s.bodies[0]["response_format"].(map[string]any)
	if rf["type"] != "json_schema" || rf["json_schema"].(map[string]any)["name"] != "turn_facts" {
		t.Fatalf("response_format %v", rf)
	}
}

func TestRefusalIsReported(t *testing.T) {
	_, url := newScript(t, completion(map[string]any{"role": "assistant", "content": nil, "refusal": "I can't help with that."}, "stop"))
	r, err := New(Options{BaseURL: url, Model: "m"}).Complete(context.Background(), model.Request{Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
	if err != nil || r.Stop != model.StopRefusal || !strings.Contains(r.Text, "can't help") {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestTimeoutIsUnavailable(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	_, url := newScript(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	c := New(Options{BaseURL: url, Model: "m", Timeout: 50 * time.Millisecond})
	_, err := c.Complete(context.Background(), model.Request{Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
	if !memory.IsCode(err, memory.CodeUnavailable) || !strings.Contains(memory.ErrorMessage(err), "timed out") {
		t.Fatalf("want a timeout, got %v", err)
	}
}

func TestRejectedKeyNamesTheVariable(t *testing.T) {
	_, url := newScript(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}`)
	})
	_, err := New(Options{BaseURL: url, Model: "m", APIKey: "sk-x", KeyEnv: "OPENAI_API_KEY"}).Complete(context.Background(),
		model.Request{Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
	if !memory.IsCode(err, memory.CodeUnavailable) || !strings.Contains(memory.ErrorMessage(err), "OPENAI_API_KEY") {
		t.Fatalf("%v", err)
	}
	if errors.Is(err, model.ErrRefused) {
		t.Fatal("a rejected key is not a refusal")
	}
}
