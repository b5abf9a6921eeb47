package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Offered is a tool a request offers the model. Namespace is set for
// Codex's namespace tools (the MCP server's tools grouped under
// "mcp__<server>").
type Offered struct {
	Namespace string
	Name      string
}

// Full is the tool's name with its namespace joined by "__".
func (o Offered) Full() string {
	if o.Namespace == "" {
		return o.Name
	}
	return o.Namespace + "__" + o.Name
}

// ToolResult is a tool's output as the client sent it back.
type ToolResult struct {
	CallID string
	Text   string
}

// parsed is what the server reads from a model request.
type parsed struct {
	model   string
	stream  bool
	tools   []Offered
	results []ToolResult
}

func (p parsed) hasResult(id string) bool {
	for _, r := range p.results {
		if r.CallID == id {
			return true
		}
	}
	return false
}

// find looks a step's tool up among those offered: by its own name, or by
// its namespace and name joined.
func find(tools []Offered, name string) (Offered, bool) {
	for _, t := range tools {
		if t.Full() == name || (t.Namespace == "" && t.Name == name) {
			return t, true
		}
	}
	return Offered{}, false
}

func names(tools []Offered) string {
	var b strings.Builder
	for i, t := range tools {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == 12 {
			fmt.Fprintf(&b, "… %d more", len(tools)-i)
			break
		}
		b.WriteString(t.Full())
	}
	return b.String()
}

// wireTool is a tool entry of either protocol. Responses tools of type
// "namespace" hold their own tools.
type wireTool struct {
	Type  string     `json:"type"`
	Name  string     `json:"name"`
	Tools []wireTool `json:"tools"`
}

// parseRequest reads the fields the script needs from a model request of
// either protocol.
func parseRequest(api API, body []byte) (parsed, error) {
	var raw struct {
		Model    string          `json:"model"`
		Stream   bool            `json:"stream"`
		Tools    []wireTool      `json:"tools"`
		Messages json.RawMessage `json:"messages"`
		Input    json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return parsed{}, fmt.Errorf("parse %s request: %w", api, err)
	}
	p := parsed{model: raw.Model, stream: raw.Stream}
	for _, t := range raw.Tools {
		if len(t.Tools) > 0 {
			for _, in := range t.Tools {
				if in.Name != "" {
					p.tools = append(p.tools, Offered{Namespace: t.Name, Name: in.Name})
				}
			}
			continue
		}
		if t.Name != "" {
			p.tools = append(p.tools, Offered{Name: t.Name})
		}
	}
	var err error
	switch api {
	case Anthropic:
		p.results, err = anthropicResults(raw.Messages)
	case Responses:
		p.results, err = responsesResults(raw.Input)
	}
	return p, err
}

// anthropicResults finds tool_result blocks in the messages.
func anthropicResults(msgs json.RawMessage) ([]ToolResult, error) {
	if len(msgs) == 0 {
		return nil, nil
	}
	var ms []struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(msgs, &ms); err != nil {
		return nil, fmt.Errorf("parse messages: %w", err)
	}
	var out []ToolResult
	for _, m := range ms {
		if len(m.Content) == 0 || m.Content[0] != '[' {
			continue
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			return nil, fmt.Errorf("parse message content: %w", err)
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				out = append(out, ToolResult{CallID: b.ToolUseID, Text: flatText(b.Content)})
			}
		}
	}
	return out, nil
}

// responsesResults finds function_call_output items in the input.
func responsesResults(input json.RawMessage) ([]ToolResult, error) {
	if len(input) == 0 || input[0] != '[' {
		return nil, nil
	}
	var items []struct {
		Type   string          `json:"type"`
		CallID string          `json:"call_id"`
		Output json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(input, &items); err != nil {
		return nil, fmt.Errorf("parse input: %w", err)
	}
	var out []ToolResult
	for _, it := range items {
		if it.Type == "function_call_output" || it.Type == "custom_tool_call_output" {
			out = append(out, ToolResult{CallID: it.CallID, Text: flatText(it.Output)})
		}
	}
	return out, nil
}

// flatText is the text of a tool result: a string, or the text fields of
// an array of parts.
func flatText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for i, p := range parts {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// ToolResults returns the tool results a recorded model request carries.
func (r Request) ToolResults() []ToolResult {
	p, err := parseRequest(r.API, r.Body)
	if err != nil {
		return nil
	}
	return p.results
}

// Tools returns the tools a recorded model request offers.
func (r Request) Tools() []Offered {
	p, err := parseRequest(r.API, r.Body)
	if err != nil {
		return nil
	}
	return p.tools
}

// Strings returns every string value in the request's JSON body (object
// keys left out), in document order: the prompt, system text, tool
// results, tool descriptions. Text injected by a hook or plugin is one of
// them.
func (r Request) Strings() []string {
	d := json.NewDecoder(bytes.NewReader(r.Body))
	// inObj[i] says whether level i is an object; wantKey whether the
	// next string at that level is a key.
	var inObj, wantKey []bool
	var out []string
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		top := len(inObj) - 1
		switch x := tok.(type) {
		case json.Delim:
			switch x {
			case '{', '[':
				if top >= 0 && inObj[top] {
					wantKey[top] = true // this value ends the pair
				}
				inObj = append(inObj, x == '{')
				wantKey = append(wantKey, x == '{')
			default:
				inObj, wantKey = inObj[:top], wantKey[:top]
			}
			continue
		case string:
			if top >= 0 && inObj[top] && wantKey[top] {
				wantKey[top] = false
				continue
			}
			out = append(out, x)
		}
		if top >= 0 && inObj[top] {
			wantKey[top] = true
		}
	}
}

// Spans returns every span of text from open to close (both included)
// found in the request's strings.
func (r Request) Spans(open, close string) []string {
	var out []string
	for _, s := range r.Strings() {
		for {
			i := strings.Index(s, open)
			if i < 0 {
				break
			}
			j := strings.Index(s[i:], close)
			if j < 0 {
				out = append(out, s[i:])
				break
			}
			out = append(out, s[i:i+j+len(close)])
			s = s[i+j+len(close):]
		}
	}
	return out
}
