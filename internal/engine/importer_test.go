package engine

import "testing"

func TestOwnTool(t *testing.T) {
	for name, want := range map[string]bool{
		"mcp__cairn__memory_search":   true, // Claude Code, Codex
		"mcp__cairn__memory_timeline": true,
		"cairn_memory_read":           true, // OpenCode
		"MCP__Cairn__Memory_List":     true,
		"mcp__other__memory_search":   false, // another server's tool of the same name
		"memory_search":               false, // no server named: not provably ours
		"mcp__cairn__status":          false,
		"Bash":                        false,
	} {
		if got := ownTool(name); got != want {
			t.Errorf("ownTool(%q) = %v, want %v", name, got, want)
		}
	}
}
