// Package corpus writes a synthetic transcript corpus for benchmarks: a
// Claude Code tree (claude/projects/<encoded cwd>/<session>.jsonl, with
// some 2.1 subagent files under <session>/subagents/) and a Codex tree
// (codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl), each holding
// about half the requested bytes.
//
// The lines have the shapes the real clients write (see the importers'
// testdata), and their text mixes what real work produces: prose about
// software, identifiers, shell commands and their output, JSON, diffs,
// some Chinese, a few lines over 64 KiB and planted secrets of known
// shapes, so that parsing, redaction and storage all do real work.
//
// Output is a pure function of Options: the same seed and size give the
// same bytes, so a benchmark compares like with like across commits.
// Ensure keeps one copy per seed and size in a cache directory outside the
// repository, written under a temporary name and renamed only when
// complete.
//
// For search benchmarks, GenerateParts writes a Claude Code tree sized by
// the number of parts the importer stores, with parts of everyday length,
// spread over git checkouts that MakeCheckouts lays out on disk so that
// places resolve as they would on a developer's machine; Queries draws a
// fixed list of searches from the same vocabulary; EnsureBuilt caches
// anything built from these (a store) under a versioned name.
package corpus
