package corpus

import (
	"fmt"
	"time"
)

// Options say what to generate. Zero fields take the defaults below; only
// TargetBytes is required.
type Options struct {
	// TargetBytes is the least total size. Each tree gets half; it stops
	// at the first file that reaches its half, so the corpus overshoots by
	// at most one file per tree (with that file's subagents).
	TargetBytes int64 `json:"target_bytes"`
	// Seed picks the corpus: the same seed and options give the same bytes.
	Seed uint64 `json:"seed"`
	// MinFileBytes and MaxFileBytes bound a main session file (default
	// 200 KB and 8 MB; sizes are drawn log-uniformly, so small files are
	// common). A subagent's file holds one turn in 200 KB to 1 MB.
	MinFileBytes int64 `json:"min_file_bytes"`
	MaxFileBytes int64 `json:"max_file_bytes"`
	// MinTurns and MaxTurns bound a session's turns (default 5 and 60).
	MinTurns int `json:"min_turns"`
	MaxTurns int `json:"max_turns"`
	// SubagentShare is the share of Claude Code sessions that spawn
	// subagents (default 0.2; negative for none).
	SubagentShare float64 `json:"subagent_share"`
	// Start is the time of the first session (default 2026-01-05 08:00 UTC).
	Start time.Time `json:"start"`
}

// Defaults.
const (
	defaultMinFile  = 200_000
	defaultMaxFile  = 8_000_000
	defaultMinTurns = 5
	defaultMaxTurns = 60
	defaultSubagent = 0.2
)

// withDefaults fills zero fields and checks the rest.
func (o Options) withDefaults() (Options, error) {
	if o.TargetBytes <= 0 {
		return o, fmt.Errorf("corpus options: target bytes must be positive, got %d", o.TargetBytes)
	}
	if o.MinFileBytes == 0 {
		o.MinFileBytes = defaultMinFile
	}
	if o.MaxFileBytes == 0 {
		o.MaxFileBytes = defaultMaxFile
	}
	if o.MinTurns == 0 {
		o.MinTurns = defaultMinTurns
	}
	if o.MaxTurns == 0 {
		o.MaxTurns = defaultMaxTurns
	}
	if o.SubagentShare == 0 {
		o.SubagentShare = defaultSubagent
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)
	}
	if o.MinFileBytes < 0 || o.MaxFileBytes < o.MinFileBytes {
		return o, fmt.Errorf("corpus options: file size bounds %d..%d are not a range", o.MinFileBytes, o.MaxFileBytes)
	}
	if o.MinTurns < 1 || o.MaxTurns < o.MinTurns {
		return o, fmt.Errorf("corpus options: turn bounds %d..%d are not a range", o.MinTurns, o.MaxTurns)
	}
	return o, nil
}

// Stats describe a generated corpus: what the importers should find in it.
type Stats struct {
	Files  int   `json:"files"`
	Bytes  int64 `json:"bytes"`
	Claude Tree  `json:"claude"`
	Codex  Tree  `json:"codex"`
	// Secrets counts the credentials planted in tool outputs that the
	// importers keep (an output the client writes twice is counted once).
	Secrets int `json:"secrets"`
	// LongLines counts lines longer than 64 KiB.
	LongLines int `json:"long_lines"`
}

// Tree describes one client's half of the corpus.
type Tree struct {
	Files int   `json:"files"` // subagent files included
	Bytes int64 `json:"bytes"`
	// Sessions and Turns are what the client's importer reads from the
	// tree; a subagent file is a session of its own.
	Sessions  int `json:"sessions"`
	Subagents int `json:"subagents"`
	Turns     int `json:"turns"`
	Lines     int `json:"lines"`
}

func (s *Stats) add(t *Tree, f fileStats) {
	t.Files++
	t.Bytes += f.bytes
	t.Sessions += f.sessions
	t.Subagents += f.subagents
	t.Turns += f.turns
	t.Lines += f.lines
	s.Files++
	s.Bytes += f.bytes
	s.Secrets += f.secrets
	s.LongLines += f.longLines
}

// fileStats is what writing one file produced.
type fileStats struct {
	bytes                      int64
	lines, longLines           int
	sessions, subagents, turns int
	secrets                    int
}

// longLine is the length past which a line counts as long: the default
// bufio.Scanner limit that naive readers trip over.
const longLine = 64 << 10
