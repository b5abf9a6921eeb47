package model

import (
	"fmt"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/redact"
)

// Bounds of the transcript sent for extraction.
const (
	transcriptMax = 60000 // characters of the whole transcript
	toolPartMax   = 1500  // characters of one tool call or result
	assistMax     = 2500  // characters of one assistant message
)

// dataOpen and dataClose fence text that is data, never instructions.
// Any copy of them inside the data is defused first.
const (
	dataOpen  = "<<<CAIRN-DATA"
	dataClose = "CAIRN-DATA>>>"
)

// fence wraps data between the markers, with a name saying what it is.
func fence(name, data string) string {
	data = strings.ReplaceAll(data, dataOpen, "<<<cairn-data")
	data = strings.ReplaceAll(data, dataClose, "cairn-data>>>")
	return dataOpen + " " + name + "\n" + data + "\n" + dataClose + "\n"
}

// clean redacts text again (it was redacted on import; the rules may have
// grown since) and cuts it to max characters.
func clean(s string, max int) string {
	s, _ = redact.Default().Redact(s)
	return cut(strings.TrimSpace(s), max)
}

// cut shortens s to at most max characters (runes), marking the cut.
func cut(s string, max int) string {
	r := []rune(s)
	if max <= 0 || len(r) <= max {
		return s
	}
	return string(r[:max]) + " …[cut]"
}

// renderTranscript writes a session for a model, each message labelled by
// who wrote it, so the prompt's evidence hierarchy (user over tool over
// assistant) can be applied. Reasoning parts are left out.
func renderTranscript(s memory.Session) string {
	var b strings.Builder
	for _, t := range s.Turns {
		fmt.Fprintf(&b, "### turn %d", t.Seq)
		if t.Status != "" && t.Status != memory.TurnCompleted {
			fmt.Fprintf(&b, " (%s)", t.Status)
		}
		b.WriteString("\n")
		if len(t.Parts) == 0 {
			if t.Request != "" {
				b.WriteString("[user] " + clean(t.Request, 0) + "\n")
			}
			if t.Outcome != "" {
				b.WriteString("[assistant] " + clean(t.Outcome, assistMax) + "\n")
			}
			continue
		}
		for _, p := range t.Parts {
			switch {
			case p.Kind == memory.KindReasoning:
			case p.Role == memory.RoleUser && p.Kind == memory.KindText:
				b.WriteString("[user] " + clean(p.Text, 0) + "\n")
			case p.Kind == memory.KindToolCall:
				fmt.Fprintf(&b, "[tool call %s] %s\n", p.Tool, clean(p.Text, toolPartMax))
			case p.Kind == memory.KindToolResult:
				tag := "tool output"
				if p.IsError {
					tag = "tool error"
				}
				fmt.Fprintf(&b, "[%s %s] %s\n", tag, p.Tool, clean(p.Text, toolPartMax))
			case p.Role == memory.RoleAssistant:
				b.WriteString("[assistant] " + clean(p.Text, assistMax) + "\n")
			default:
				fmt.Fprintf(&b, "[%s %s] %s\n", p.Role, p.Kind, clean(p.Text, toolPartMax))
			}
		}
	}
	out := b.String()
	if r := []rune(out); len(r) > transcriptMax {
		// Keep the start (the task) and the end (how it ended).
		head := transcriptMax * 2 / 5
		out = string(r[:head]) + "\n…[middle of the session cut]…\n" + string(r[len(r)-(transcriptMax-head):])
	}
	return out
}
