package transcript

import (
	"sort"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Result is what an importer read from one source (a file, a directory or
// an export).
type Result struct {
	// Sessions found in the source, each with its turns and parts. Text is
	// raw: the engine redacts it before anything is stored.
	Sessions []memory.Session
	Stats    Stats
	// Files lists every file read for this source (a session file and its
	// subagent files, say), so an incremental import can tell whether any of
	// them changed since the last run.
	Files []File
}

// File is one file an importer read, as it was when read.
type File struct {
	Path    string    `json:"path"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mod_time"`
}

// Stats accounts for every line or record of a source, so a user can see
// what was skipped and why.
type Stats struct {
	Lines   int            `json:"lines"`
	Skipped map[string]int `json:"skipped,omitempty"` // reason → count
	// Consumed is the number of bytes of complete records read. A trailing
	// half-written line is not consumed; the next run reads it again.
	Consumed int64 `json:"consumed"`
	// Pending is true when the source ended in a half-written line.
	Pending bool `json:"pending,omitempty"`
}

// Skip counts one skipped record under a short reason such as
// "invalid json" or "unknown type: foo". Reasons must never contain
// transcript text.
func (s *Stats) Skip(reason string) {
	if s.Skipped == nil {
		s.Skipped = map[string]int{}
	}
	s.Skipped[reason]++
}

// SkippedTotal sums the skipped counts.
func (s Stats) SkippedTotal() int {
	n := 0
	for _, c := range s.Skipped {
		n += c
	}
	return n
}

// Reasons lists the skip reasons in a stable order.
func (s Stats) Reasons() []string {
	out := make([]string, 0, len(s.Skipped))
	for r := range s.Skipped {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// Merge adds o's counts into s.
func (s *Stats) Merge(o Stats) {
	s.Lines += o.Lines
	s.Consumed += o.Consumed
	s.Pending = s.Pending || o.Pending
	for r, c := range o.Skipped {
		if s.Skipped == nil {
			s.Skipped = map[string]int{}
		}
		s.Skipped[r] += c
	}
}

// OpenCodeDBPrefix marks a source that names OpenCode's own database, to be
// read directly (read-only). Only an explicit user request produces one.
const OpenCodeDBPrefix = "opencode-db:"
