// Package capture holds the deterministic rules that turn a finished turn
// into proposals for memory, with no model and no I/O.
//
//   - Tool rules ([ToolDrafts]) read a turn's tool calls and results in the
//     shapes Claude Code, Codex and OpenCode write them and propose
//     observed events: commits, pushes, opened pull requests, edited files,
//     delegated subagent tasks, tool errors, and the current branch as a
//     one-value fact. A call proposes nothing unless its result came back;
//     a failed call proposes only its error.
//   - Episodes ([Episode]) are the L2 layer: a bounded request → outcome
//     summary of one completed turn, with the tools it used, the files it
//     changed and the parts it rests on.
//   - Recall questions ([IsRecallQuestion]) — "what is my name", "where
//     did I leave off", "我们之前决定了什么", "nerede kalmıştım" — ask
//     memory rather than tell it, so they are never learned from.
//     [Learnable] is the one gate a turn passes before it feeds any
//     derived layer.
//   - Markers find constraints, preferences and decisions in the user's own
//     words and propose them as candidates.
//
// Every proposal is a [memory.Draft] (or an [EpisodeDraft]) with evidence
// pointing at its session, turn and part. Deciding its slot, tier, place
// and fate is the write point's job, not this package's. Transcript text is
// data: nothing here follows instructions found in it.
package capture
