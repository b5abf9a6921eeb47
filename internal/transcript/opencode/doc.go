// Package opencode imports OpenCode sessions into cairn's sessions, turns
// and parts. It reads three sources, all holding OpenCode's MessageV2
// model (session info; messages with role user or assistant; typed parts):
//
//   - ExportSession runs `opencode export <id>` and ParseExport reads its
//     JSON. This is the default: seed 001 says the host's data is the
//     host's, reached through the host's own interface, so that a change
//     in OpenCode's storage cannot break cairn and a cairn bug cannot
//     touch OpenCode's files. ListSessions runs `opencode session list
//     --format json` to find the ids.
//   - ParseStorage reads the legacy storage/ tree of OpenCode ≤1.1
//     (1.2 migrates it into the database on first run and stops writing
//     it).
//   - ReadDB reads opencode.db (OpenCode ≥1.2) directly. This goes against
//     seed 001's rule (the memory system "never opens the host's internal
//     store even read-only"), so the CLI offers it only behind an explicit
//     flag, for when the opencode binary cannot be run. It opens the file
//     with mode=ro and query_only: SQLite then never writes the database or
//     its -wal and never creates the file. It still reads the -wal (a live
//     OpenCode's latest writes) and, like any WAL reader, uses the -shm
//     shared-memory index, which it may create or update when OpenCode is
//     not running; a database in WAL mode with no -shm in a directory we
//     cannot write may fail to open. The schema is OpenCode's private
//     business and may change in any release; the newer session_message
//     table (the V2 message model, empty in 1.18) is not read.
//
// # Sessions
//
// One memory.Session per OpenCode session: ExternalID is the session id
// (ses_…), ParentExternalID its parentID (set on the child session a task
// tool runs, which is then Subagent), Cwd the session directory (else an
// assistant message's path.cwd), Title, ClientVersion the OpenCode version
// that created it, Model the modelID of the last assistant message (else
// the session's model), StartedAt and EndedAt from the session and its
// messages.
//
// # Turns
//
// A turn starts at each user message; Key is its id and Request its text
// parts joined by a blank line, leaving out synthetic and ignored parts
// (an attached file read back, plugin reminders). The assistant messages
// that follow, up to the next user message, are its answer (one per model
// step: a step that calls tools is followed by another). Outcome is the
// text of the last of them that has text. Status comes from the last
// assistant message:
//   - cut_short: MessageAbortedError (the user pressed escape),
//     MessageOutputLengthError or finish "length", no completion time (the
//     process died mid-stream, or it is still running), a last step that
//     ended in tool-calls or an unknown reason, or no answer at all;
//   - refused: ContentFilterError or finish "content-filter";
//   - failed: any other error (APIError, ProviderAuthError, UnknownError…);
//   - completed: finish "stop" (or none, in versions that did not record
//     it) with a completion time.
//
// Assistant messages before the first user message form a turn with an
// empty request keyed by the first of them.
//
// # Parts
//
// text → KindText (a compaction summary's text → KindSummary); tool → a
// KindToolCall with the input as decoded "key: value" lines and, once the
// tool finished, a KindToolResult with state.output, or state.error and
// IsError when the status is "error"; file → the placeholder
// "[file: name]" or "[image: name]", never the content; subtask →
// KindSubagent; a message error → a system part "[error: Name]". Not
// stored, and not counted as skipped: reasoning, step-start, step-finish,
// snapshot, patch, retry, agent and compaction parts. Any other part type
// is counted in Stats. cairn's own marker spans are stripped from every
// text with memory.StripMarked.
//
// # Provenance
//
//   - FromMCP: a tool that is not built in and whose name has an
//     underscore: OpenCode names MCP tools <server>_<tool>;
//   - FromFiles: a file part, the read tool, a tool result with
//     attachments;
//   - FromImages: a file part or attachment with an image/* mime type;
//   - FromBrowser: webfetch, websearch, codesearch, or an MCP tool whose
//     name says browser, playwright, puppeteer, chrome or fetch;
//   - FromProviderTools: a tool part marked providerExecuted;
//   - FromRecalledMemory: cairn's marker in any text, synthetic parts and
//     tool input and output included.
//
// Nothing here panics on bad input: records that do not decode, fields of
// the wrong type and unknown part types are counted in transcript.Stats
// under short reasons that never quote transcript text.
package opencode
