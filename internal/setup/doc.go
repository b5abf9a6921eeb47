// Package setup wires cairn into the coding clients by editing their own
// configuration files: Claude Code's settings.json, ~/.claude.json and
// .mcp.json, Codex's hooks.json and config.toml, OpenCode's opencode.json
// and a plugin file. It changes only cairn's entries, keeps everything
// else in those files as it was (other hooks and servers, unknown keys,
// key order, TOML comments), never rewrites a file whose content would not
// change, and keeps a backup of every file it does change.
//
// JSON files are edited through a small order-preserving document model;
// Codex's config.toml is edited as text, one table block at a time, and
// the result is checked with a TOML parser before it is written.
package setup
