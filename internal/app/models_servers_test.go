package app

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// modelServer is a scripted model on 127.0.0.1 that speaks one provider's
// real wire protocol (chat completions or Anthropic Messages). answer
// picks the reply from the decoded request; every request is kept.
type modelServer struct {
	mu       sync.Mutex
	requests []map[string]any
	answer   func(n int, body map[string]any) (status int, reply map[string]any)
}

func newModelServer(t *testing.T, path string, answer func(n int, body map[string]any) (int, map[string]any)) (*modelServer, string) {
	t.Helper()
	s := &modelServer{answer: answer}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != path {
			http.Error(w, "unexpected "+r.URL.Path, http.StatusNotFound)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, "not JSON", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		n := len(s.requests)
		s.requests = append(s.requests, body)
		s.mu.Unlock()
		status, reply := s.answer(n, body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(reply)
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func (s *modelServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// chatReply is a chat-completions answer with text content.
func chatReply(model, content string, in, out int) map[string]any {
	return map[string]any{"id": "chatcmpl-x", "object": "chat.completion", "created": 1, "model": model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "logprobs": nil,
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}}
}

// schemaName is the structured-output schema a chat request asks for.
func schemaName(body map[string]any) string {
	rf, _ := body["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	name, _ := js["name"].(string)
	return name
}

// lastUserText is the text of a chat request's last user message.
func lastUserText(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] == "user" {
			s, _ := m["content"].(string)
			return s
		}
	}
	return ""
}

// anthropicReply is a Messages answer.
func anthropicReply(content []any, stop string) map[string]any {
	return map[string]any{"id": "msg_x", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 1000, "output_tokens": 200}}
}

func toolUse(id, name string, input map[string]any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}

// toolResults maps tool_use ids to the results the last request carried.
func toolResults(body map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return out
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	blocks, _ := last["content"].([]any)
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		if m["type"] == "tool_result" {
			id, _ := m["tool_use_id"].(string)
			out[id] = m
		}
	}
	return out
}

// resultText is a tool result's text (a string or text blocks).
func resultText(r map[string]any) string {
	switch c := r["content"].(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, x := range c {
			if m, ok := x.(map[string]any); ok {
				s, _ := m["text"].(string)
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}
