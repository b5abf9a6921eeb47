// Package e2e drives the real coding agents (Claude Code, Codex, OpenCode)
// against cairn, end to end: each agent is installed at a pinned version
// (testdata/clients.txt), set up with `cairn setup`, and talks to a
// scripted model on 127.0.0.1 instead of a real one. The scripted model
// (Server) speaks the Anthropic Messages API and the OpenAI Responses API,
// follows a per-test script of answers and tool calls, and records every
// request, which is where the memory block cairn injected can be seen and
// measured.
//
// The suite itself is built only with the e2e tag (it needs the agents,
// npm and a few hundred megabytes): run it with scripts/e2e, which installs
// the agents into $CAIRN_E2E_CACHE (default ~/.cache/cairn-e2e) or skips
// with a reason when it cannot. CAIRN_E2E_BREAK=setup-layout or
// hook-output injects a known fault, to show that the suite catches it;
// CAIRN_E2E_CAIRN=PATH tests that binary instead of a build of the tree;
// CAIRN_E2E_REQUESTS=DIR keeps every request the model got and cairn's
// store.
package e2e
