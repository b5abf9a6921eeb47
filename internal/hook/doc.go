// Package hook adapts the clients' hook protocols to the engine: it reads
// the JSON a client sends on stdin (Claude Code, Codex) or the arguments
// cairn's OpenCode plugin passes, calls the engine, and writes what that
// client expects on stdout. A hook never blocks or alters the user's
// prompt: any internal failure is logged and the hook says nothing.
package hook
