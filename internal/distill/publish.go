package distill

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// RawMemoriesPath is where V1 publishes the selected raw memories.
const RawMemoriesPath = "raw_memories.md"

// Select is publishing's choice (seed 001): empty extractions and those
// unused since unusedBefore are left out, the rest ranked by usage and
// recency, best first, and cut at limit (0: no cap). Recency halves after
// 30 days, so a recap used often last month still beats a fresh one-off
// only while its uses outweigh the age.
func Select(xs []memory.Extraction, now, unusedBefore time.Time, limit int) []memory.Extraction {
	type scored struct {
		x memory.Extraction
		s float64
	}
	var keep []scored
	for _, x := range xs {
		last := lastUse(x)
		if x.Empty || x.Slug == "" || (!unusedBefore.IsZero() && last.Before(unusedBefore)) {
			continue
		}
		age := now.Sub(last).Hours() / 24
		if last.IsZero() {
			age = 3650
		}
		age = max(age, 0)
		keep = append(keep, scored{x, math.Log2(1+float64(max(x.UsageCount, 0))) + 1/(1+age/30)})
	}
	slices.SortStableFunc(keep, func(a, b scored) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		if c := b.x.SessionAt.Compare(a.x.SessionAt); c != 0 {
			return c
		}
		return cmp.Compare(a.x.ID, b.x.ID)
	})
	if limit > 0 && len(keep) > limit {
		keep = keep[:limit]
	}
	out := make([]memory.Extraction, len(keep))
	for i, k := range keep {
		out[i] = k.x
	}
	return out
}

// lastUse is when an extraction last mattered: its last use, else when
// its session ended, else when it was made.
func lastUse(x memory.Extraction) time.Time {
	t := x.SessionAt
	if t.IsZero() {
		t = x.CreatedAt
	}
	if x.LastUsedAt.After(t) {
		t = x.LastUsedAt
	}
	return t
}

// RecapFile is the published rollout summary of an extraction.
func RecapFile(x memory.Extraction) string {
	s := strings.TrimRight(x.Summary, "\n")
	if s == "" {
		s = "# " + x.Slug
	}
	return s + "\n"
}

// RawMemoriesFile is raw_memories.md: the selected raw memories, best
// first, each under its slug so a line can be traced to its recap.
func RawMemoriesFile(xs []memory.Extraction) string {
	var b strings.Builder
	b.WriteString("# Raw memories\n\n_The extractions consolidation reads, best first; regenerated on every pass, so edit MEMORY.md instead._\n")
	for _, x := range xs {
		when := ""
		if !x.SessionAt.IsZero() {
			when = ", " + x.SessionAt.UTC().Format("2006-01-02")
		}
		fmt.Fprintf(&b, "\n## %s (session %s%s; recap %s)\n\n%s\n", x.Slug, x.SessionRef, when, RecapPath(x.Slug),
			strings.TrimSpace(x.RawMemory))
	}
	return b.String()
}
