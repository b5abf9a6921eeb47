package opencode

import (
	"net/url"
	"path"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// ignoredParts hold nothing cairn keeps, so they are read without being
// counted as skipped: reasoning (the model's scratch work), step and
// snapshot bookkeeping, patches (which files a step changed; the tool
// calls already say so), retries, @agent mentions and compaction markers.
var ignoredParts = map[string]bool{
	"reasoning": true, "step-start": true, "step-finish": true,
	"snapshot": true, "patch": true, "retry": true, "agent": true,
	"compaction": true,
}

// addPart maps one OpenCode part onto zero, one or two cairn parts and
// the turn's provenance.
func (tb *turnBuilder) addPart(role memory.Role, info *messageInfo, p *part) {
	switch p.Type {
	case "text":
		tb.turn.Flags |= markerFlag(p.Text)
		if p.Synthetic || p.Ignored {
			return
		}
		text := strings.TrimSpace(memory.StripMarked(p.Text))
		if text == "" {
			return
		}
		kind := memory.KindText
		if role == memory.RoleAssistant && info.isSummary() {
			kind = memory.KindSummary
		}
		end := p.Time.End
		if end <= 0 {
			end = p.Time.Start
		}
		tb.append(memory.Part{Role: role, Kind: kind, Text: text, Time: partTime(end, info)})
	case "file":
		tb.turn.Flags |= memory.FromFiles
		if isImage(p.Mime) {
			tb.turn.Flags |= memory.FromImages
		}
		tb.append(memory.Part{Role: role, Kind: memory.KindText, Text: filePlaceholder(p), Time: partTime(0, info)})
	case "tool":
		tb.addTool(info, p)
	case "subtask":
		text := strings.TrimSpace(memory.StripMarked(strings.TrimSpace(p.Description + "\n\n" + p.Prompt)))
		tb.turn.Flags |= markerFlag(p.Prompt)
		tb.append(memory.Part{Role: role, Kind: memory.KindSubagent, Text: text, Tool: p.Agent, Time: partTime(0, info)})
	case "":
		tb.st.Skip("part without type")
	default:
		if ignoredParts[p.Type] {
			return
		}
		if t := safeToken(p.Type); t != "" {
			tb.st.Skip("unknown part type: " + t)
		} else {
			tb.st.Skip("unknown part type")
		}
	}
}

// addTool stores a tool call and, once the tool finished, its result.
func (tb *turnBuilder) addTool(info *messageInfo, p *part) {
	tb.turn.Flags |= toolFlags(p)
	if p.Tool == "" {
		tb.st.Skip("tool part without name")
	}
	input := renderJSON(p.State.Input)
	tb.turn.Flags |= markerFlag(input)
	tb.append(memory.Part{
		Role: memory.RoleAssistant, Kind: memory.KindToolCall, Tool: p.Tool,
		Text: memory.StripMarked(input), Time: partTime(p.State.Time.Start, info),
	})
	end := p.State.Time.End
	if end <= 0 {
		end = p.State.Time.Start
	}
	switch {
	case p.State.Status == "error":
		text := p.State.Error
		if text == "" {
			text = renderOutput(p.State.Output)
		}
		tb.turn.Flags |= markerFlag(text)
		tb.append(memory.Part{
			Role: memory.RoleTool, Kind: memory.KindToolResult, Tool: p.Tool,
			Text: memory.StripMarked(text), IsError: true, Time: partTime(end, info),
		})
	case len(p.State.Output) > 0:
		// completed; pending and running tools have no output yet.
		text := renderOutput(p.State.Output)
		tb.turn.Flags |= markerFlag(text)
		tb.append(memory.Part{
			Role: memory.RoleTool, Kind: memory.KindToolResult, Tool: p.Tool,
			Text: memory.StripMarked(text), Time: partTime(end, info),
		})
	}
}

// filePlaceholder names an attached file without its content: OpenCode
// also stores the content (a data: URL, or a synthetic text part with the
// file read back), which is never kept.
func filePlaceholder(p *part) string {
	label := "file"
	if isImage(p.Mime) {
		label = "image"
	}
	name := p.Filename
	if name == "" && p.Source.Path != "" {
		name = path.Base(p.Source.Path)
	}
	if name == "" {
		if u, err := url.Parse(p.URL); err == nil && u.Scheme == "file" && u.Path != "" {
			name = path.Base(u.Path)
		}
	}
	if name == "" || name == "." || name == "/" {
		return "[" + label + "]"
	}
	return "[" + label + ": " + name + "]"
}
