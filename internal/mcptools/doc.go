// Package mcptools serves cairn's memory to agents as MCP tools: search,
// read, list, timeline, remember and forget, over one engine interface so
// the same server runs on stdio (`cairn mcp`), inside `cairn serve`, or in
// front of a remote gateway.
package mcptools
