package codex

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// event handles an event_msg record.
func (p *parser) event(m object) {
	typ := m.str("type")
	switch typ {
	case "task_started", "turn_started":
		p.taskStarted(m.str("turn_id"))
	case "task_complete", "turn_complete":
		if t := p.turnByID(m.str("turn_id")); t != nil {
			t.closed, t.completed = true, true
			t.taskMessage = p.text(m.str("last_agent_message"))
			t.touch(p.ts)
		}
	case "turn_aborted":
		if t := p.turnByID(m.str("turn_id")); t != nil {
			t.closed, t.aborted = true, true
			t.abortReason = reasonName(m.str("reason"))
			t.touch(p.ts)
			t.add(memory.Part{Role: memory.RoleSystem, Kind: memory.KindText, Text: "turn aborted: " + t.abortReason, Time: p.ts})
		}
	case "user_message":
		p.userMessage(m)
	case "agent_message":
		p.agentMessage(m)
	case "error":
		if t := p.inTurn("error"); t != nil {
			t.errored = true
			if msg := p.text(m.str("message")); msg != "" {
				t.add(memory.Part{Role: memory.RoleSystem, Kind: memory.KindText, Text: msg, IsError: true, Time: p.ts})
			}
		}
	case "stream_error":
		// Codex retries after these; only a turn left with no answer fails.
		if p.cur != nil {
			p.cur.errored = true
		}
	case "exec_command_end":
		p.execEnd(m)
	case "patch_apply_end":
		if t := p.cur; t != nil && m.str("call_id") != "" {
			c := t.callFor(m.str("call_id"))
			if ok, set := m.boolean("success"); set && !ok {
				c.isError = true
			}
			text := strings.TrimSpace(m.str("stdout") + "\n" + m.str("stderr"))
			c.setEventOut(memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Text: p.text(text), Time: p.ts}, nil)
		}
	case "mcp_tool_call_end":
		p.flag(memory.FromMCP)
		p.mcpEnd(m)
	case "web_search_end":
		p.flag(memory.FromBrowser | memory.FromProviderTools)
	case "image_generation_end":
		p.flag(memory.FromImages | memory.FromProviderTools)
	case "view_image_tool_call":
		p.flag(memory.FromImages | memory.FromFiles)
	case "collab_agent_spawn_end":
		if t := p.inTurn("agent spawn"); t != nil {
			text := renderObject(m, "type", "call_id", "sender_thread_id", "prompt")
			t.add(memory.Part{Role: memory.RoleTool, Kind: memory.KindSubagent, Tool: "spawn_agent", Text: p.text(text), Time: p.ts})
		}
	case "collab_waiting_end", "collab_close_end", "collab_resume_end", "collab_agent_interaction_end":
		if t := p.cur; t != nil && m.str("call_id") != "" {
			c := t.callFor(m.str("call_id"))
			text := renderObject(m, "type", "call_id", "sender_thread_id")
			c.setEventOut(memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Text: p.text(text), Time: p.ts}, nil)
		}
	case "thread_rolled_back":
		p.rollBack(m)
	case "thread_name_updated":
		if name := p.text(m.str("thread_name")); name != "" {
			p.sess.Title = name
		}
	default:
		if !isKnownEvent(typ) {
			p.stats.Skip("unknown event_msg: " + reasonName(typ))
		}
	}
}

// isKnownEvent lists events that carry nothing to import: telemetry, UI
// progress, deltas, approvals, settings.
func isKnownEvent(typ string) bool {
	switch typ {
	case "token_count", "agent_reasoning", "agent_reasoning_raw_content",
		"agent_reasoning_section_break", "agent_message_delta", "agent_reasoning_delta",
		"agent_reasoning_raw_content_delta", "agent_message_content_delta",
		"reasoning_content_delta", "reasoning_raw_content_delta", "plan_delta",
		"context_compacted", "entered_review_mode", "exited_review_mode",
		"thread_goal_updated", "item_started", "item_completed", "sub_agent_activity",
		"exec_command_begin", "exec_command_output_delta", "terminal_interaction",
		"patch_apply_begin", "patch_apply_updated", "web_search_begin",
		"mcp_tool_call_begin", "image_generation_begin", "turn_diff", "plan_update",
		"collab_agent_spawn_begin", "collab_agent_interaction_begin",
		"collab_waiting_begin", "collab_close_begin", "collab_resume_begin",
		"dynamic_tool_call_request", "dynamic_tool_call_response",
		"warning", "guardian_warning", "guardian_assessment", "session_configured",
		"thread_settings_applied", "background_event", "undo_started", "undo_completed",
		"deprecation_notice", "mcp_startup_update", "mcp_startup_complete",
		"mcp_list_tools_response", "list_custom_prompts_response", "list_skills_response",
		"skills_update_available", "shutdown_complete", "get_history_entry_response",
		"exec_approval_request", "apply_patch_approval_request", "elicitation_request",
		"request_user_input", "request_permissions", "raw_response_item",
		"hook_started", "hook_completed", "model_reroute", "model_verification",
		"safety_buffering", "turn_moderation_metadata", "stream_info",
		"realtime_conversation_started", "realtime_conversation_sdp",
		"realtime_conversation_realtime", "realtime_conversation_closed",
		"realtime_conversation_list_voices_response":
		return true
	}
	return false
}

// taskStarted opens the turn Codex started, or adopts an id for a turn the
// user message already opened.
func (p *parser) taskStarted(id string) {
	t := p.cur
	switch {
	case t != nil && id != "" && t.id == id:
	case t != nil && !t.closed && !t.started && (t.id == "" || id == "") && !t.acted():
		if t.id == "" {
			t.id = id
		}
	default:
		t = p.open(id)
	}
	t.started = true
	p.touch()
}

// turnByID finds the turn an end event names: the current one when the id
// matches or is absent, else an earlier turn with that id.
func (p *parser) turnByID(id string) *turnBuilder {
	if p.cur == nil {
		p.stats.Skip("turn end outside a turn")
		return nil
	}
	if id == "" || p.cur.id == id || p.cur.id == "" {
		return p.cur
	}
	for i := len(p.turns) - 1; i >= 0; i-- {
		if p.turns[i].id == id {
			return p.turns[i]
		}
	}
	return p.cur
}

// execEnd reads what Codex reports about a finished command: its exit code,
// and whether it parsed the command as reading a file.
func (p *parser) execEnd(m object) {
	t := p.cur
	if t == nil {
		return
	}
	for _, raw := range m.arr("parsed_cmd") {
		if pc, ok := objectAt(raw, m.buf); ok && pc.str("type") == "read" {
			t.flags |= memory.FromFiles
		}
	}
	id := m.str("call_id")
	if id == "" {
		return
	}
	c := t.callFor(id)
	if code, ok := m.int("exit_code"); ok && code != 0 {
		c.isError = true
	}
	// The output is decoded only if the turn ends without the call's own
	// function_call_output, which normally repeats it; what a decoded text
	// would tell now (cairn's marker) is read from the raw string.
	out := m.get("aggregated_output")
	if len(out) == 0 || out[0] != '"' || isEmptyString(out) {
		out = m.get("formatted_output")
	}
	if len(out) == 0 || out[0] != '"' {
		out = nil
	} else if rawHasMarker(out) {
		p.flag(memory.FromRecalledMemory)
	}
	c.setEventOut(memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Time: p.ts}, out)
}

// mcpEnd reads an MCP call's result: Ok{content, isError} or Err(message).
func (p *parser) mcpEnd(m object) {
	t := p.cur
	id := m.str("call_id")
	if t == nil || id == "" {
		return
	}
	c := t.callFor(id)
	res, ok := m.obj("result")
	if !ok {
		return
	}
	var text string
	if msg, ok := res.strOK("Err"); ok {
		c.isError = true
		text = msg
	} else if okRes, ok := res.obj("Ok"); ok {
		if isErr, _ := okRes.boolean("isError"); isErr {
			c.isError = true
		}
		if isErr, _ := okRes.boolean("is_error"); isErr {
			c.isError = true
		}
		out := outputFromItems(okRes.get("content"))
		text = out.text
		if out.image {
			t.flags |= memory.FromImages
		}
	}
	c.setEventOut(memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Text: p.text(text), Time: p.ts}, nil)
}

// rollBack marks the last num_turns turns that had a prompt as undone.
func (p *parser) rollBack(m object) {
	n, ok := m.int("num_turns")
	if !ok || n <= 0 {
		return
	}
	for i := len(p.turns) - 1; i >= 0 && n > 0; i-- {
		if len(p.turns[i].requests) > 0 {
			p.turns[i].rolledBack = true
			n--
		}
	}
}
