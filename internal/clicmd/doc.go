// Package clicmd is cairn's model provider over the user's own installed
// agent CLIs, run as subprocesses: `claude -p` (Claude Code) and
// `codex exec` (Codex). It implements model.Chat.
//
// Each run gets CAIRN_PRESET=private in its environment, so cairn's own
// hooks inside it neither recall nor learn, and a fresh empty working
// directory, so no project's instructions or files ride along. The CLI's
// own tools are switched off where the CLI allows it (claude: --tools "",
// no MCP servers); tool calls cairn offers are spoken as JSON in text.
package clicmd
