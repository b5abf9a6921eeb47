package opencode

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// builtinTools are the tools OpenCode 1.x ships (1.18.33 offers bash, edit,
// glob, grep, read, skill, task, todowrite, webfetch and write to a plain
// provider; the rest appear with other settings, providers or versions).
// Any other tool came from an MCP server or a plugin.
var builtinTools = map[string]bool{
	"bash": true, "edit": true, "glob": true, "grep": true, "read": true,
	"skill": true, "task": true, "todowrite": true, "todoread": true,
	"webfetch": true, "websearch": true, "codesearch": true, "write": true,
	"list": true, "patch": true, "apply_patch": true, "multiedit": true,
	"lsp": true, "batch": true, "question": true, "invalid": true,
	"plan_enter": true, "plan_exit": true,
}

// browserTools fetch or search the web.
var browserTools = map[string]bool{"webfetch": true, "websearch": true, "codesearch": true}

// isMCPTool reports whether a tool name is an MCP tool. OpenCode registers
// an MCP server's tools as <server>_<tool>, each half with every character
// outside [A-Za-z0-9_-] replaced by "_" (checked in the 1.18.33 binary and
// in a real session: server "notes", tool "lookup" → "notes_lookup"). The
// name does not say where the server ends, so any tool that is not
// built in and has an underscore counts; a plugin tool named that way is
// flagged too, which errs on the side of calling context external.
func isMCPTool(name string) bool {
	return !builtinTools[name] && strings.Contains(name, "_")
}

// toolFlags is the provenance a tool call adds to its turn.
func toolFlags(p *part) memory.Provenance {
	var f memory.Provenance
	name := p.Tool
	switch {
	case name == "read":
		f |= memory.FromFiles
	case browserTools[name]:
		f |= memory.FromBrowser
	case isMCPTool(name):
		f |= memory.FromMCP
		lower := strings.ToLower(name)
		for _, w := range []string{"browser", "playwright", "puppeteer", "chrome", "fetch"} {
			if strings.Contains(lower, w) {
				f |= memory.FromBrowser
				break
			}
		}
	}
	if p.Metadata.ProviderExecuted {
		f |= memory.FromProviderTools
	}
	for _, a := range p.State.Attachments {
		f |= memory.FromFiles
		if isImage(a.Mime) {
			f |= memory.FromImages
		}
	}
	return f
}

func isImage(mime string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(mime)), "image/")
}

// safeToken returns s when it is a short identifier-like word (a part
// type, an error name), else "". Stats reasons and error parts use it so
// that they can never carry transcript text.
func safeToken(s string) string {
	if s == "" || len(s) > 40 {
		return ""
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return ""
		}
	}
	return s
}
