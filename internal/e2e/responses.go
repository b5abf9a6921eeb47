package e2e

import (
	"net/http"
	"time"
)

// serveResponses answers the OpenAI Responses API (Codex and OpenCode's
// @ai-sdk/openai): streamed as server-sent events when asked, else one
// response object.
func (s *Server) serveResponses(w http.ResponseWriter, r *http.Request) {
	body, seq, err := s.record(r, Responses)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	p, err := parseRequest(Responses, body)
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
	respID := s.newID("resp")
	itemID := s.newID("item")
	created := time.Now().Unix()
	var done map[string]any // the output item, complete
	if m.tool != nil {
		done = map[string]any{"type": "function_call", "id": itemID, "call_id": m.id, "name": m.tool.Name,
			"arguments": m.args, "status": "completed"}
		if m.tool.Namespace != "" {
			done["namespace"] = m.tool.Namespace
		}
	} else {
		done = map[string]any{"type": "message", "id": itemID, "status": "completed", "role": "assistant",
			"content": []map[string]any{{"type": "output_text", "text": m.text, "annotations": []any{}}}}
	}
	in := estimateTokens(len(body))
	out := outputTokens(m)
	usage := map[string]any{
		"input_tokens": in, "input_tokens_details": map[string]int{"cached_tokens": 0},
		"output_tokens": out, "output_tokens_details": map[string]int{"reasoning_tokens": 0},
		"total_tokens": in + out,
	}
	response := func(status string, output []any, u any) map[string]any {
		return map[string]any{"id": respID, "object": "response", "created_at": created, "status": status,
			"model": model, "output": output, "usage": u, "error": nil, "incomplete_details": nil}
	}
	if !p.stream {
		writeJSON(w, response("completed", []any{done}, usage))
		return
	}
	e := newSSE(w)
	n := 0
	event := func(name string, data map[string]any) {
		data["type"] = name
		data["sequence_number"] = n
		n++
		e.event(name, data)
	}
	event("response.created", map[string]any{"response": response("in_progress", []any{}, nil)})
	event("response.in_progress", map[string]any{"response": response("in_progress", []any{}, nil)})
	if m.tool != nil {
		added := map[string]any{}
		for k, v := range done {
			added[k] = v
		}
		added["arguments"], added["status"] = "", "in_progress"
		event("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		for _, c := range chunks(m.args) {
			event("response.function_call_arguments.delta", map[string]any{"item_id": itemID, "output_index": 0, "delta": c})
		}
		event("response.function_call_arguments.done", map[string]any{"item_id": itemID, "output_index": 0, "arguments": m.args})
	} else {
		event("response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{
			"type": "message", "id": itemID, "status": "in_progress", "role": "assistant", "content": []any{}}})
		event("response.content_part.added", map[string]any{"item_id": itemID, "output_index": 0, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		for _, c := range chunks(m.text) {
			event("response.output_text.delta", map[string]any{"item_id": itemID, "output_index": 0, "content_index": 0,
				"delta": c, "logprobs": []any{}})
		}
		event("response.output_text.done", map[string]any{"item_id": itemID, "output_index": 0, "content_index": 0,
			"text": m.text, "logprobs": []any{}})
		event("response.content_part.done", map[string]any{"item_id": itemID, "output_index": 0, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": m.text, "annotations": []any{}}})
	}
	event("response.output_item.done", map[string]any{"output_index": 0, "item": done})
	event("response.completed", map[string]any{"response": response("completed", []any{done}, usage)})
}
