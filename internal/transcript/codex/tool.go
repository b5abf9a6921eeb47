package codex

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Tool names Codex gives its provider-hosted tools, which carry no name of
// their own in the rollout.
const (
	toolWebSearch       = "web_search"
	toolImageGeneration = "image_generation"
	toolSearch          = "tool_search"
	toolLocalShell      = "local_shell"
)

// toolName joins an MCP namespace ("mcp__server__") and a tool name the way
// the hook payloads name the same tool ("mcp__server__tool").
func toolName(name, namespace string) string {
	if namespace == "" {
		return name
	}
	if strings.HasSuffix(namespace, "__") {
		return namespace + name
	}
	return namespace + "__" + name
}

// toolFlags says what a called tool brings into the turn, by its name.
func toolFlags(name string) memory.Provenance {
	var f memory.Provenance
	lower := strings.ToLower(name)
	if strings.HasPrefix(lower, "mcp__") {
		f |= memory.FromMCP
	}
	for _, w := range []string{"browser", "playwright", "puppeteer", "chrome"} {
		if strings.Contains(lower, w) {
			f |= memory.FromBrowser
		}
	}
	switch lower {
	case "read_file":
		f |= memory.FromFiles
	case "view_image":
		f |= memory.FromFiles | memory.FromImages
	case toolWebSearch:
		f |= memory.FromBrowser | memory.FromProviderTools
	case toolImageGeneration:
		f |= memory.FromImages | memory.FromProviderTools
	case toolSearch:
		f |= memory.FromProviderTools
	}
	return f
}

// exitLine is how Codex's exec tools report a finished process in their
// output text.
var exitLine = regexp.MustCompile(`(?m)^Process exited with code (-?\d+)\s*$`)

// toolOutput is a rendered tool result.
type toolOutput struct {
	text    string
	isError bool
	image   bool
}

// renderOutput reads a function_call_output / custom_tool_call_output
// "output", which is a string in the fixtures and an array of content items
// or an object in other Codex versions.
func renderOutput(raw json.RawMessage) toolOutput {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return toolOutput{}
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return toolOutput{text: string(raw)}
		}
		return outputFromString(s)
	case '[':
		return outputFromItems(raw)
	case '{':
		o, ok := decodeObject(raw)
		if !ok {
			return toolOutput{text: string(raw)}
		}
		var out toolOutput
		if s, ok := o.strOK("content"); ok {
			out = outputFromString(s)
		} else if items := o["content_items"]; len(items) > 0 {
			out = outputFromItems(items)
		} else if items := o["content"]; len(items) > 0 {
			out = outputFromItems(items)
		} else {
			out.text = renderObject(o)
		}
		if ok, set := o.boolean("success"); set && !ok {
			out.isError = true
		}
		return out
	}
	return toolOutput{text: string(raw)}
}

// outputFromString handles the plain-text output and the older JSON-in-text
// form {"output": "...", "metadata": {"exit_code": N}}.
func outputFromString(s string) toolOutput {
	out := toolOutput{text: s}
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "{") {
		if o, ok := decodeObject([]byte(trimmed)); ok {
			if text, ok := o.strOK("output"); ok {
				out.text = text
				if meta, ok := o.obj("metadata"); ok {
					if code, ok := meta.int("exit_code"); ok && code != 0 {
						out.isError = true
					}
				}
			}
		}
	}
	if m := exitLine.FindAllStringSubmatch(out.text, -1); len(m) > 0 {
		if code, err := strconv.Atoi(m[len(m)-1][1]); err == nil && code != 0 {
			out.isError = true
		}
	}
	return out
}

// outputFromItems joins the text of content items; images are noted, never
// stored (they are data URLs).
func outputFromItems(raw json.RawMessage) toolOutput {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return toolOutput{text: string(raw)}
	}
	var out toolOutput
	var parts []string
	for _, it := range items {
		o, ok := decodeObject(it)
		if !ok {
			continue
		}
		switch o.str("type") {
		case "input_image", "image", "output_image":
			out.image = true
			parts = append(parts, "[image]")
		default:
			if t, ok := o.strOK("text"); ok {
				parts = append(parts, t)
			}
		}
	}
	out.text = strings.Join(parts, "\n")
	return out
}

// messageText joins the text items of a response_item message and notes
// images and refusals.
func messageText(content json.RawMessage) (text string, image, refusal bool) {
	var items []json.RawMessage
	if err := json.Unmarshal(content, &items); err != nil {
		s, _ := asString(content)
		return s, false, false
	}
	var parts []string
	for _, it := range items {
		o, ok := decodeObject(it)
		if !ok {
			continue
		}
		switch o.str("type") {
		case "input_image", "image", "output_image":
			image = true
		case "refusal":
			refusal = true
			parts = append(parts, o.str("refusal"))
		default:
			if t, ok := o.strOK("text"); ok {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n"), image, refusal
}
