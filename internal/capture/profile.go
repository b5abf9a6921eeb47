package capture

import (
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

// DefaultProfileMin is how many active L1 notes the profile waits for.
const DefaultProfileMin = 3

// Profile bounds: the whole text, one note's line, notes per section.
const (
	profileMaxChars   = 1200
	profileMaxItem    = 160
	profileMaxSection = 6
)

// profileSections are the profile's sections, in the order they print.
var profileSections = []struct {
	class memory.Class
	title string
}{
	{memory.ClassPreference, "Preferences"},
	{memory.ClassConvention, "Conventions"},
	{memory.ClassDecision, "Decisions"},
}

// Profile builds the L3 profile: a short, conservative digest of the
// active L1 notes, in the user's own words, under the headings
// Preferences, Conventions and Decisions. It reports false while fewer
// than min such notes exist (min <= 0 means DefaultProfileMin).
//
// Only current notes count (not superseded, retracted or forgotten), of
// those three classes, with a tier that may be shown to a model; facts
// live in their slots, not here. Notes are taken pinned first, then by
// confidence, usage count, recency (last use or creation, whichever is
// later) and id, so the same notes always give the same text whatever
// their order. A note that repeats an earlier one (same words, ignoring
// case and spacing) is skipped; a long note is cut at a word with "…";
// each section keeps at most six notes and the whole text stays within
// 1,200 characters: a note that would not fit is left out and the next
// one tried.
func Profile(notes []memory.Statement, min int) (string, bool) {
	if min <= 0 {
		min = DefaultProfileMin
	}
	ranked := profileRank(notes)
	if len(ranked) < min {
		return "", false
	}
	picked := make(map[memory.Class][]string, len(profileSections))
	for _, n := range ranked {
		class := n.Class
		if len(picked[class]) >= profileMaxSection {
			continue
		}
		line := profileCut(markCollapse(n.Object), profileMaxItem)
		picked[class] = append(picked[class], line)
		if utf8.RuneCountInString(profileRender(picked)) > profileMaxChars {
			picked[class] = picked[class][:len(picked[class])-1]
		}
	}
	out := profileRender(picked)
	return out, out != ""
}

// profileRank returns the eligible notes, best first, without repeats.
func profileRank(notes []memory.Statement) []memory.Statement {
	var out []memory.Statement
	for _, n := range notes {
		if n.Kind != memory.KindNote || !n.Current() || n.Tier == memory.TierNone || strings.TrimSpace(n.Object) == "" {
			continue
		}
		if profileTitle(n.Class) == "" {
			continue
		}
		out = append(out, n)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Pinned != b.Pinned:
			return a.Pinned
		case a.Confidence != b.Confidence:
			return a.Confidence > b.Confidence
		case a.UsageCount != b.UsageCount:
			return a.UsageCount > b.UsageCount
		}
		if ra, rb := profileRecency(a), profileRecency(b); !ra.Equal(rb) {
			return ra.After(rb)
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Object < b.Object
	})
	seen := map[string]bool{}
	kept := out[:0]
	for _, n := range out {
		key := strings.ToLower(markCollapse(n.Object))
		if seen[key] {
			continue
		}
		seen[key] = true
		kept = append(kept, n)
	}
	return kept
}

func profileRecency(n memory.Statement) time.Time {
	if n.LastUsedAt.After(n.CreatedAt) {
		return n.LastUsedAt
	}
	return n.CreatedAt
}

func profileTitle(c memory.Class) string {
	for _, s := range profileSections {
		if s.class == c {
			return s.title
		}
	}
	return ""
}

// profileRender prints the sections that have notes, in fixed order.
func profileRender(picked map[memory.Class][]string) string {
	var b strings.Builder
	for _, s := range profileSections {
		lines := picked[s.class]
		if len(lines) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s.title)
		b.WriteString(":")
		for _, l := range lines {
			b.WriteString("\n- ")
			b.WriteString(l)
		}
	}
	return b.String()
}

// profileCut shortens s to at most n runes, at a space when one is near,
// marking the cut with "…".
func profileCut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)[:n-1]
	cut := string(runes)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)*2/3 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
