// Package distill is cairn's deterministic phase 1 and phase 2 (seed 001):
// Extract turns one finished session into an extraction (a raw memory, a
// rollout summary and a slug, or an empty record when the session taught
// nothing), and Consolidate merges the selected extractions and the
// current statements into the vault's MEMORY.md, skills/ and
// memory_summary.md. It needs no model; a model-backed phase keeps the
// same shapes. It is pure: standard library, internal/memory and
// internal/text only.
//
// # Anchors
//
// Every generated line that states something ends in an HTML comment that
// names what it rests on, invisible when the Markdown is rendered:
//
//   - Always run go test ./... before you commit. <!-- s:12,40 -->
//   - `go vet ./...` worked (verified by a command) <!-- k:1a2b3c4d -->
//   - symptom: … → fix: … <!-- s:33 k:9f8e7d6c -->
//
// "s:" lists statement ids (L1 rows), comma-separated; "k:" is an 8-hex
// key of a line that rests on no statement (a command seen in a session),
// derived from its normalized text so the same line from two sessions
// merges. A person edits the file and the next pass reads the diff: a
// removed s-line retracts its statements, a changed s-line supersedes the
// first and retracts the rest, a line without an anchor becomes a new note,
// a removed or changed k-line is dropped (Edits.Drop; the caller hands the
// keys back in ConsolidateInput.Dropped). Headings, the bold "**Scope:**",
// "**Sessions:**" and "**Keywords:**" lines, pointers into
// rollout_summaries/ and skills/, and italic placeholders are scaffolding:
// regenerated every pass, never notes.
//
// # Determinism
//
// Neither function reads a clock or a random source: the same input gives
// byte-identical output. Recency is measured against the newest time in the
// input.
package distill
