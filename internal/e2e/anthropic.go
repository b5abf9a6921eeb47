package e2e

import (
	"encoding/json"
	"net/http"
)

// serveMessages answers the Anthropic Messages API: streamed as
// server-sent events when the request asks for a stream (Claude Code
// always does), else one JSON message.
func (s *Server) serveMessages(w http.ResponseWriter, r *http.Request) {
	body, seq, err := s.record(r, Anthropic)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	p, err := parseRequest(Anthropic, body)
	if err != nil {
		s.mu.Lock()
		s.problemLocked("request %d: %v", seq, err)
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	m := s.decide(seq, p)
	model := p.model
	if model == "" {
		model = ModelName
	}
	msgID := s.newID("msg")
	usage := map[string]int{"input_tokens": estimateTokens(len(body)), "output_tokens": 0,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	stop := "end_turn"
	if m.tool != nil {
		stop = "tool_use"
	}
	if !p.stream {
		content := []map[string]any{{"type": "text", "text": m.text}}
		if m.tool != nil {
			content = []map[string]any{{"type": "tool_use", "id": m.id, "name": m.tool.Full(), "input": json.RawMessage(m.args)}}
		}
		usage["output_tokens"] = outputTokens(m)
		writeJSON(w, map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	if m.tool != nil {
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": m.id, "name": m.tool.Full(), "input": map[string]any{}}})
		for _, c := range chunks(m.args) {
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": c}})
		}
	} else {
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		for _, c := range chunks(m.text) {
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": c}})
		}
	}
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": outputTokens(m)}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}

// serveCountTokens answers /v1/messages/count_tokens with an estimate.
func (s *Server) serveCountTokens(w http.ResponseWriter, r *http.Request) {
	body, _, err := s.record(r, Anthropic)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, map[string]int{"input_tokens": estimateTokens(len(body))})
}

// estimateTokens is the usual ~4 characters per token.
func estimateTokens(chars int) int { return (chars + 3) / 4 }

func outputTokens(m move) int {
	if m.tool != nil {
		return estimateTokens(len(m.args))
	}
	return estimateTokens(len(m.text))
}
