// Package codex imports OpenAI Codex CLI rollout files
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl, optionally .jsonl.zst,
// and $CODEX_HOME/archived_sessions/) into cairn's sessions, turns and parts.
//
// A rollout is one JSONL stream of {"timestamp","type","payload"} records;
// one file is one session. The first session_meta names the session; a later
// session_meta with another id is an ancestor's, copied in by a fork.
//
// # Turns
//
// A turn opens at task_started, or at a turn_context whose turn_id is new,
// and takes that turn_id as its key. Rollouts that carry no turn ids open a
// turn at each user_message and key it "<timestamp>#<n>" from that message's
// timestamp and its position among the file's user messages. A user_message
// that arrives while a keyed turn is still open was typed into the running
// turn and joins it.
//
// The request is the user's own words: event_msg user_message only, with the
// client's context block ("# Files mentioned by the user:", "# Context from
// my IDE setup:") cut above "## My request for Codex:" and kept as a system
// part. response_item user messages (AGENTS.md, <environment_context>, skills,
// plugins) and developer messages (permissions, hook context) are never
// stored; they are only read for the flags below.
//
// The outcome is the last assistant message with phase final_answer, else
// task_complete.last_agent_message, else the last assistant message. Parts
// hold user text, assistant messages (commentary too), tool calls with their
// results placed right after them (paired by call_id), errors, aborts and
// compaction summaries. Reasoning and its summaries are not stored: they are
// the model's scratch work, often encrypted, and repeat what the messages
// say. Tool input is rendered as "key: value" lines from the decoded
// arguments, or as the raw text of a custom tool such as apply_patch, so that
// redaction sees real newlines. Every text passes through memory.StripMarked.
//
// # Status
//
//   - turn_aborted: cut_short (a system part names the reason: interrupted,
//     replaced, review_ended, ...); thread_rolled_back also marks the turns it
//     undid cut_short.
//   - task_complete: completed; refused when the chosen answer is a refusal
//     content item; failed when an error or stream_error event was seen and
//     there is no answer at all.
//   - task_started but no task_complete: failed on an error with no answer,
//     otherwise cut_short (interrupted, superseded, or still running when
//     read, as at the end of a file).
//   - A turn with no task_started (older rollouts, and the Codex Desktop
//     0.128 fixture, have none) cannot say when it ended: it is
//     completed when it has a final_answer message, or when it has an
//     assistant message and a later turn followed it; otherwise cut_short.
//
// # Provenance
//
//   - FromMCP: a tool named mcp__server__tool or in an mcp__ namespace, or an
//     mcp_tool_call_end event.
//   - FromFiles: local_images or a client file/IDE context block in the user
//     message, a command Codex itself parsed as a file read (exec_command_end
//     parsed_cmd "read"), the read_file and view_image tools.
//   - FromImages: images or local_images in the user message, input_image in
//     any message or tool output, view_image, image generation.
//   - FromBrowser: web_search_call and tools whose name says browser,
//     playwright, puppeteer or chrome.
//   - FromProviderTools: provider-hosted tools: web_search_call,
//     image_generation_call, tool_search_call.
//   - FromReferencedChats: every turn of a forked rollout (forked_from_id) or
//     of one that carries copied ancestor history.
//   - FromRecalledMemory: cairn's marker in the user message or in any
//     developer/user context message or tool output of the turn (context
//     recorded before the first turn counts for the first turn).
//
// # Forks and subagents
//
// Forked and spawned rollouts begin with a copy of the parent's history.
// Turns that are certainly copies are dropped and counted in Stats: those
// before subagent_history_start_ordinal (or history_base.end_ordinal_exclusive)
// when records carry ordinals, or, after an ancestor session_meta, those whose
// UUIDv7 turn id or timestamp is older than the rollout's own id or start.
// Copies that cannot be told apart stay, flagged FromReferencedChats.
package codex
