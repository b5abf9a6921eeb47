package claudecode

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// browserWords in a tool's name mark a tool that drives a browser.
var browserWords = []string{"browser", "playwright", "chrome", "puppeteer"}

// toolFlags maps a client-side tool call to what it brings into the turn.
func toolFlags(name string) memory.Provenance {
	var f memory.Provenance
	if strings.HasPrefix(name, "mcp__") {
		f |= memory.FromMCP
	}
	lower := strings.ToLower(name)
	for _, w := range browserWords {
		if strings.Contains(lower, w) {
			f |= memory.FromBrowser
		}
	}
	switch name {
	case "WebFetch":
		f |= memory.FromBrowser
	case "WebSearch":
		// Claude Code runs its search as the provider's server tool.
		f |= memory.FromBrowser | memory.FromProviderTools
	case "Read", "NotebookRead":
		f |= memory.FromFiles
	}
	return f
}

// serverToolFlags maps a block run by the provider (server_tool_use,
// mcp_tool_use and their *_tool_result blocks).
func serverToolFlags(blockType, name string) memory.Provenance {
	f := memory.FromProviderTools
	if strings.HasPrefix(blockType, "mcp_") {
		f |= memory.FromMCP
	}
	if strings.HasPrefix(name, "web_") || strings.HasPrefix(blockType, "web_") {
		f |= memory.FromBrowser
	}
	return f
}

// attachmentFlags maps an attachment record's kind: files named with
// @path, files open or selected in an IDE, images.
func attachmentFlags(kind string) memory.Provenance {
	if strings.HasPrefix(kind, "hook") {
		return 0
	}
	var f memory.Provenance
	if strings.Contains(kind, "file") || strings.HasPrefix(kind, "selected_lines") || strings.HasPrefix(kind, "pdf") {
		f |= memory.FromFiles
	}
	if strings.Contains(kind, "image") {
		f |= memory.FromImages
	}
	return f
}

// serverResultText renders a server tool's result: search hits as
// "title url" lines, anything else as its text blocks.
func serverResultText(content any) string {
	if items, ok := content.([]any); ok {
		var lines []string
		for _, item := range items {
			m, _ := item.(map[string]any)
			title, _ := m["title"].(string)
			url, _ := m["url"].(string)
			if title != "" || url != "" {
				lines = append(lines, strings.TrimSpace(title+" "+url))
			}
		}
		if len(lines) > 0 {
			return cleanTool(strings.Join(lines, "\n"))
		}
	}
	text, _, _ := resultText(content)
	return text
}
