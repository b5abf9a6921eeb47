package clicmd

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/model"
)

// toolProtocol tells a CLI model how to call cairn's tools in text.
const toolProtocol = `
You have no tools of your own here. You may call these functions instead:
%s
To call functions, answer with ONLY a JSON object of this shape and nothing else:
{"tool_calls": [{"name": "<function>", "arguments": {<its arguments>}}]}
The results come back in the next message. When you are done, answer in plain text with no
"tool_calls" object.`

// render writes the whole request as one prompt: the conversation so
// far, then what the answer must look like.
func render(req model.Request, withSystem bool) string {
	var b strings.Builder
	if withSystem && req.System != "" {
		b.WriteString(req.System + "\n\n")
	}
	if len(req.Tools) > 0 {
		var fns strings.Builder
		for _, t := range req.Tools {
			params, _ := json.Marshal(t.Params)
			fmt.Fprintf(&fns, "- %s: %s Arguments (JSON Schema): %s\n", t.Name, t.Description, params)
		}
		fmt.Fprintf(&b, toolProtocol+"\n\n", strings.TrimRight(fns.String(), "\n"))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case model.RoleUser:
			b.WriteString("=== user ===\n" + m.Text + "\n\n")
		case model.RoleAssistant:
			b.WriteString("=== you (earlier) ===\n")
			if m.Text != "" {
				b.WriteString(m.Text + "\n")
			}
			if len(m.Calls) > 0 {
				calls, _ := json.Marshal(map[string]any{"tool_calls": m.Calls})
				b.WriteString(string(calls) + "\n")
			}
			b.WriteString("\n")
		case model.RoleTool:
			for _, r := range m.Results {
				status := "result"
				if r.IsError {
					status = "error"
				}
				fmt.Fprintf(&b, "=== %s of %s (%s) ===\n%s\n\n", status, r.Name, r.CallID, r.Text)
			}
		}
	}
	if req.Output != nil {
		schema, _ := json.Marshal(req.Output.Schema)
		b.WriteString("Answer with ONLY one JSON object that matches this JSON Schema:\n" + string(schema) + "\n")
	}
	return b.String()
}

// parseCalls reads a text answer that asks for tools.
func parseCalls(text string) ([]model.Call, bool) {
	s := strings.TrimSpace(text)
	s = strings.TrimPrefix(s, "```json")
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.Contains(s, `"tool_calls"`) {
		return nil, false
	}
	var v struct {
		Calls []struct {
			Name string          `json:"name"`
			Args json.RawMessage `json:"arguments"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil || len(v.Calls) == 0 {
		return nil, false
	}
	out := make([]model.Call, len(v.Calls))
	for i, c := range v.Calls {
		out[i] = model.Call{ID: "call_" + strconv.Itoa(i+1), Name: c.Name, Args: c.Args}
	}
	return out, true
}
