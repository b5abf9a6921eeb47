package codex

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// responseItem handles a model-visible item.
func (p *parser) responseItem(m object) {
	typ := m.str("type")
	switch typ {
	case "message":
		p.message(m)
	case "function_call":
		t := p.inTurn("tool call")
		if t == nil {
			return
		}
		name := toolName(m.str("name"), m.str("namespace"))
		t.addCall(m.str("call_id"), name, p.text(renderArguments(m.get("arguments"))), p.ts)
	case "custom_tool_call":
		t := p.inTurn("tool call")
		if t == nil {
			return
		}
		// The input is raw text (a patch, say): kept as it is.
		t.addCall(m.str("call_id"), m.str("name"), p.text(m.str("input")), p.ts)
	case "local_shell_call":
		t := p.inTurn("tool call")
		if t == nil {
			return
		}
		id := m.str("call_id")
		if id == "" {
			id = m.str("id")
		}
		text := ""
		if action, ok := m.obj("action"); ok {
			text = renderObject(action, "type")
		}
		t.addCall(id, toolLocalShell, p.text(text), p.ts)
	case "function_call_output", "custom_tool_call_output", "tool_search_output":
		t := p.inTurn("tool output")
		if t == nil {
			return
		}
		raw := m.get("output")
		if typ == "tool_search_output" && raw == nil {
			raw = m.get("tools")
		}
		out := renderOutput(raw)
		out.text = p.text(out.text)
		t.addOutput(m.str("call_id"), out, p.ts)
	case "web_search_call":
		t := p.inTurn("tool call")
		if t == nil {
			return
		}
		text := ""
		if action, ok := m.obj("action"); ok {
			text = renderObject(action)
		}
		t.addCall("", toolWebSearch, p.text(text), p.ts)
	case "tool_search_call":
		t := p.inTurn("tool call")
		if t == nil {
			return
		}
		t.addCall(m.str("call_id"), toolSearch, p.text(renderArguments(m.get("arguments"))), p.ts)
	case "image_generation_call":
		t := p.inTurn("tool call")
		if t == nil {
			return
		}
		// The result is base64 image data: only the prompt is kept.
		t.addCall("", toolImageGeneration, p.text(m.str("revised_prompt")), p.ts)
	case "reasoning", "compaction", "compaction_summary", "context_compaction",
		"compaction_trigger", "ghost_snapshot", "additional_tools", "agent_message", "other":
		// Not imported; see the package doc.
	default:
		p.stats.Skip("unknown response_item: " + reasonName(typ))
	}
}

// message handles a response_item message. Only assistant messages become
// parts; user and developer messages carry injected context (AGENTS.md,
// environment, skills, permissions, hook output) and are read for flags.
func (p *parser) message(m object) {
	text, image, refusal := messageText(m.get("content"))
	switch m.str("role") {
	case "assistant":
		t := p.inTurn("assistant message")
		if t == nil {
			return
		}
		t.addAssistant(p.text(text), m.str("phase"), refusal, p.ts)
	case "user", "developer", "system":
		if carriesMarker(text) {
			p.flag(memory.FromRecalledMemory)
		}
		if image && m.str("role") == "user" {
			p.flag(memory.FromImages)
		}
		p.touch()
	}
}

// userMessage handles the user's own prompt.
func (p *parser) userMessage(m object) {
	msg, ok := m.strOK("message")
	if !ok {
		p.stats.Skip("user_message without message")
		return
	}
	p.userMsgs++
	t := p.cur
	// A prompt typed while a started task is still running joins it;
	// otherwise every prompt starts a turn.
	if t == nil || t.closed || (!t.started && t.userTS != "") {
		t = p.open("")
	}
	p.touch()
	if t.userTS == "" {
		t.userTS, t.userOrdinal = p.rawTS, p.userMsgs
	}
	msg = p.text(msg)
	context, words, f := splitRequest(msg)
	t.flags |= f
	if m.nonEmptyArray("images") {
		t.flags |= memory.FromImages
	}
	if m.nonEmptyArray("local_images") {
		t.flags |= memory.FromImages | memory.FromFiles
	}
	if context != "" {
		t.add(memory.Part{Role: memory.RoleSystem, Kind: memory.KindText, Text: context, Time: p.ts})
	}
	if words != "" {
		t.requests = append(t.requests, words)
		t.add(memory.Part{Role: memory.RoleUser, Kind: memory.KindText, Text: words, Time: p.ts})
	}
}

// agentMessage keeps an agent_message event as a fallback part: the same
// text normally arrives as a response_item message, which wins.
func (p *parser) agentMessage(m object) {
	msg := p.text(m.str("message"))
	if msg == "" || p.cur == nil {
		return
	}
	p.touch()
	p.cur.entries = append(p.cur.entries, entry{
		part:     memory.Part{Role: memory.RoleAssistant, Kind: memory.KindText, Text: msg, Time: p.ts},
		fallback: true,
	})
	p.cur.evLast = msg
	if strings.EqualFold(m.str("phase"), "final_answer") {
		p.cur.evFinal = msg
	}
}
