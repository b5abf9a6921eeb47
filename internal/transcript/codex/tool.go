package codex

import (
	"bytes"
	"github.com/cairn-memory/cairn/internal/transcript/jsonscan"
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

// exitPrefix starts the line in which Codex's exec tools report a finished
// process: "Process exited with code N" (N may be negative), alone on its
// line but for trailing blanks.
const exitPrefix = "Process exited with code "

// exitCode returns the code of the last exit line in s.
func exitCode(s string) (code string, ok bool) {
	for off := 0; ; {
		i := strings.Index(s[off:], exitPrefix)
		if i < 0 {
			return code, ok
		}
		i += off
		off = i + len(exitPrefix)
		if i > 0 && s[i-1] != '\n' {
			continue
		}
		if c, found := exitDigits(s[off:]); found {
			code, ok = c, true
		}
	}
}

// exitDigits reads the "N" that ends an exit line: an optional minus and
// digits, then only spaces, tabs, form feeds or carriage returns before the
// end of the line or of the text.
func exitDigits(s string) (string, bool) {
	n := 0
	if n < len(s) && s[n] == '-' {
		n++
	}
	start := n
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == start {
		return "", false
	}
	for i := n; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\f', '\r':
		case '\n':
			return s[:n], true
		default:
			return "", false
		}
	}
	return s[:n], true
}

// toolOutput is a rendered tool result.
type toolOutput struct {
	text    string
	isError bool
	image   bool
}

// renderOutput reads a function_call_output / custom_tool_call_output
// "output", which is a string in the fixtures and an array of content items
// or an object in other Codex versions. raw is valid JSON.
func renderOutput(raw []byte) toolOutput {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return toolOutput{}
	}
	switch raw[0] {
	case '"':
		return outputFromString(jsonscan.Unquote(raw))
	case '[':
		return outputFromItems(raw)
	case '{':
		o, _ := objectAt(raw, nil)
		var out toolOutput
		if s, ok := o.strOK("content"); ok {
			out = outputFromString(s)
		} else if items := o.get("content_items"); len(items) > 0 {
			out = outputFromItems(items)
		} else if items := o.get("content"); len(items) > 0 {
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
		if o, ok := decodeObject([]byte(trimmed), nil); ok {
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
	if c, ok := exitCode(out.text); ok {
		if code, err := strconv.Atoi(c); err == nil && code != 0 {
			out.isError = true
		}
	}
	return out
}

// outputFromItems joins the text of content items; images are noted, never
// stored (they are data URLs). raw is valid JSON, or empty when absent.
func outputFromItems(raw []byte) toolOutput {
	if len(raw) == 0 || raw[0] != '[' {
		if string(raw) == "null" {
			return toolOutput{}
		}
		return toolOutput{text: string(raw)}
	}
	var out toolOutput
	var parts []string
	var buf fieldBuf
	it := jsonscan.ElementsOf(raw)
	for item, ok := it.Next(); ok; item, ok = it.Next() {
		buf.reset()
		o, ok := objectAt(item, &buf)
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
// images and refusals. content is valid JSON, or empty when absent.
func messageText(content []byte) (text string, image, refusal bool) {
	if len(content) == 0 || content[0] != '[' {
		s, _ := asString(content)
		return s, false, false
	}
	var parts []string
	var buf fieldBuf
	it := jsonscan.ElementsOf(content)
	for item, ok := it.Next(); ok; item, ok = it.Next() {
		buf.reset()
		o, ok := objectAt(item, &buf)
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
