// Package claudecode reads Claude Code transcripts
// (~/.claude/projects/<encoded cwd>/<session>.jsonl and their subagent
// files) into cairn's sessions, turns and parts.
//
// The format is internal to Claude Code and changes between versions, so
// every line is decoded leniently: a line that is not JSON, has an unknown
// record type or lacks the fields its type needs is counted in
// transcript.Stats and skipped; known bookkeeping records (progress,
// file-history-snapshot, queue-operation, attachment, titles, hook
// summaries, ...) are read without being counted as skipped.
//
// # Which lines count
//
// Conversational lines form a tree through parentUuid. The active branch is
// the chain from the last line of the file back to its root, continued
// across compaction through logicalParentUuid. Lines off that chain are kept
// when their side branch holds no prompt of the user's: Claude Code 2.1
// hangs parallel tool results (and the later blocks of one reply) off
// earlier lines, so these branches are part of the conversation. A side
// branch that holds a prompt was abandoned by a rewind and is dropped.
// Lines not connected to the chain at all (an excerpt, a record without
// parentUuid) are treated the same way from their own last line.
//
// # Turns
//
// A turn starts at a user line that carries the human's own words: string
// content or text blocks that remain non-empty once harness noise is
// removed, not isMeta, not a carrier of tool results and not a compaction
// summary. It runs until the next such line. Turn.Key is that line's uuid
// and Turn.Request its cleaned text. A slash command line
// (<command-name>) starts a turn with the request "/name args" only if the
// model answers it; local commands such as /model or /mcp that get no
// answer leave no turn. Content before the first prompt (a file that begins
// mid-conversation) forms a turn with an empty request keyed by its first
// line. Turn.Outcome is the text of the turn's last assistant message
// (assistant lines sharing message.id are one message).
//
// Turn.Status, decided from the turn's last assistant message and the
// signals after it:
//   - failed: an API error (system api_error, or an assistant line marked
//     isApiErrorMessage) and no answer after it;
//   - cut_short: "[Request interrupted by user…]", an interrupted tool
//     result, no assistant message at all, stop_reason max_tokens, or a
//     last message that still waits on a tool call (the file ended or the
//     user moved on);
//   - refused: stop_reason refusal;
//   - completed: stop_reason end_turn, or a last message with text and no
//     pending tool call;
//   - otherwise cut_short.
//
// # Parts
//
// The user's text, assistant text, tool calls (input rendered as decoded
// "key: value" lines) and tool results become parts in transcript order,
// with Time from the line's timestamp. Thinking blocks are not stored.
// Images become the placeholder "[image]". A compaction summary
// (isCompactSummary) becomes a KindSummary part of the turn it interrupts.
// Removed everywhere: cairn's own marker spans (memory.StripMarked),
// <system-reminder> spans, and isMeta lines and hook_additional_context
// attachments (hook-injected context). Removed from user text also:
// <command-…>, <local-command-…>, <task-notification> and <bash-…> spans.
//
// # Provenance
//
// Flags are set per turn:
//   - FromMCP: a tool named mcp__… was called (or an API mcp_tool_use block);
//   - FromFiles: Read or NotebookRead was called, a tool result carried a
//     file, an attachment of a file kind arrived, an isMeta line replayed a
//     Read (how @file mentions were persisted), or the request mentions
//     @path;
//   - FromImages: an image block in the request or a tool result;
//   - FromBrowser: WebFetch, WebSearch, web_search/web_fetch server tools,
//     or an MCP tool whose name mentions browser, playwright, chrome or
//     puppeteer;
//   - FromProviderTools: server-side tool blocks (server_tool_use,
//     *_tool_result other than tool_result) and WebSearch, which Claude Code
//     runs as a provider tool;
//   - FromReferencedChats: the turn holds lines copied from another session
//     (their sessionId differs, as --resume and --fork-session write them),
//     or it is the session's first own turn after such lines;
//   - FromRecalledMemory: cairn's marker appeared in the user's text, an
//     isMeta line or a hook attachment.
//
// # Sessions
//
// The main session's ExternalID is its sessionId. Each subagent transcript
// becomes its own session with Subagent set, ParentExternalID the parent's
// sessionId and ExternalID "<sessionId>/agent-<agentId>". Two kinds of
// harness side-agents are not imported: compaction agents
// (agent-acompact-…, whose answer is already the parent's compaction
// summary) and the "Warmup" sidechains Claude Code 2.0 sent to prime the
// cache. Summary records name the session only when their leafUuid is one of
// its own lines (Claude Code writes summaries of other sessions into a
// file too); ai-title and custom-title set the title, the last of each
// winning and custom-title over ai-title over summary.
package claudecode
