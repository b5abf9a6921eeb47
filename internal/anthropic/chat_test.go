package anthropic

import (
	"context"
	"encoding/json"
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

// script is a Messages API server on 127.0.0.1: each request gets the
// next answer; bodies and headers are kept.
type script struct {
	mu      sync.Mutex
	answers []func(w http.ResponseWriter, r *http.Request)
	bodies  []map[string]any
	keys    []string
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
	return s, srv.URL
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		http.Error(w, "unexpected "+r.URL.Path, http.StatusNotFound)
		return
	}
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	key := r.Header.Get("X-Api-Key")
	if key == "" {
		key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	s.keys = append(s.keys, key)
	var next func(w http.ResponseWriter, r *http.Request)
	if len(s.answers) > 0 {
		next, s.answers = s.answers[0], s.answers[1:]
	}
	s.mu.Unlock()
	if next == nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"script ran out"}}`)
		return
	}
	next(w, r)
}

func message(content []any, stop string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test-2026",
			"content": content, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 200, "output_tokens": 40, "cache_read_input_tokens": 10},
		})
	}
}

func TestToolUseRoundTrip(t *testing.T) {
	s, url := newScript(t,
		message([]any{map[string]any{"type": "text", "text": "Reading."},
			map[string]any{"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": map[string]any{"dir": ""}}}, "tool_use"),
		message([]any{map[string]any{"type": "text", "text": "Done."}}, "end_turn"),
	)
	c := New(Options{BaseURL: url, APIKey: "sk-ant-test", Model: "claude-test"})
	req := model.Request{System: "sys", Tools: []model.Tool{{Name: "list_files", Description: "list",
		Params: map[string]any{"type": "object", "properties": map[string]any{"dir": map[string]any{"type": "string"}}, "required": []any{"dir"}}}},
		Messages: []model.Message{{Role: model.RoleUser, Text: "go"}}}
	r1, err := c.Complete(context.Background(), req)
	if err != nil || r1.Stop != model.StopTools || len(r1.Calls) != 1 || r1.Calls[0].ID != "toolu_1" || r1.Text != "Reading." ||
		r1.Usage.In != 210 || r1.Usage.Out != 40 {
		t.Fatalf("first answer %+v %v", r1, err)
	}
	req.Messages = append(req.Messages, model.Message{Role: model.RoleAssistant, Text: r1.Text, Calls: r1.Calls},
		model.Message{Role: model.RoleTool, Results: []model.Result{{CallID: "toolu_1", Text: "path \"../x\" climbs out", IsError: true}}})
	r2, err := c.Complete(context.Background(), req)
	if err != nil || r2.Stop != model.StopEnd || r2.Text != "Done." {
		t.Fatalf("second answer %+v %v", r2, err)
	}
	b := s.bodies[1]
	if b["system"].([]any)[0].(map[string]any)["text"] != "sys" || b["max_tokens"] != float64(defaultMaxTokens) {
		t.Fatalf("system/max_tokens: %v", b)
	}
	msgs := b["messages"].([]any)
	last := msgs[2].(map[string]any)
	res := last["content"].([]any)[0].(map[string]any)
	if last["role"] != "user" || res["type"] != "tool_result" || res["tool_use_id"] != "toolu_1" || res["is_error"] != true {
		t.Fatalf("tool result %v", last)
	}
	tool := b["tools"].([]any)[0].(map[string]any)
	if tool["name"] != "list_files" || tool["input_schema"].(map[string]any)["type"] != "object" {
		t.Fatalf("tool %v", tool)
	}
	if s.keys[0] != "sk-ant-test" {
		t.Fatalf("key header %q", s.keys[0])
	}
}

func TestRefusalStop(t *testing.T) {
	_, url := newScript(t, message([]any{map[string]any{"type": "text", "text": ""}}, "refusal"))
	r, err := New(Options{BaseURL: url, APIKey: "k", Model: "m"}).Complete(context.Background(), model.Request{Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
	if err != nil || r.Stop != model.StopRefusal {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	_, url := newScript(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	_, err := New(Options{BaseURL: url, APIKey: "k", Model: "m", Timeout: 50 * time.Millisecond}).Complete(context.Background(),
		model.Request{Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
	if !memory.IsCode(err, memory.CodeUnavailable) || !strings.Contains(memory.ErrorMessage(err), "timed out") {
		t.Fatalf("want a timeout, got %v", err)
	}
}

func TestOverloadedIsUnavailable(t *testing.T) {
	_, url := newScript(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(529)
		_, _ = io.WriteString(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	})
	_, err := New(Options{BaseURL: url, APIKey: "k", Model: "m"}).Complete(context.Background(),
		model.Request{Messages: []model.Message{{Role: model.RoleUser, Text: "x"}}})
	if !memory.IsCode(err, memory.CodeUnavailable) || !strings.Contains(memory.ErrorMessage(err), "529") {
		t.Fatalf("%v", err)
	}
}
