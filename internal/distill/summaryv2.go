package distill

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// The four headings of a V2 summary, in order.
const (
	v2Profile = "User Profile"
	v2Prefs   = "User preferences"
	v2Tips    = "General Tips"
	v2Index   = "What's in Memory"
)

// maxV2Listed bounds the preferences and tips of a V2 summary, so that
// pointers keep their room.
const maxV2Listed = 25

// defaultWords mark a rule stated as a default rather than a one-task
// request.
var defaultWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:always|never|by default|default|from now on|every time|whenever|in general|as a rule|prefer|all of our|in this (?:repo|codebase|project))\b|总是|永远|默认|以后|始终|一律|每次`)
})

// summaryV2 writes Memory V2's only file: a summary that is the memory.
// A preference or tip appears only when it was stated as a default (or
// written by a person outside a session) or showed up across two distinct
// tasks; everything else is a dated pointer to a recap and its session.
func (p *pass) summaryV2() string {
	var profile, prefs, tips []string
	places := p.profile()
	profile = append(profile, places...)
	es := p.statementEntries()
	slices.SortStableFunc(es, func(a, b *entry) int {
		if wa, wb := weight(a), weight(b); wa != wb {
			return wb - wa
		}
		return cmpDesc(a.score, b.score)
	})
	for _, e := range es {
		if !p.standing(e) {
			continue
		}
		line := p.entryLine(e)
		s := p.stmts[e.ids[0]]
		switch {
		case s.Class == memory.ClassUser:
			profile = append(profile, line)
		case e.section == secPreferences:
			if len(prefs) < maxV2Listed {
				prefs = append(prefs, line)
			}
		default:
			if len(tips) < maxV2Listed {
				tips = append(tips, line)
			}
		}
	}
	order := make([]int, len(p.exts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := p.exts[b].SessionAt.Compare(p.exts[a].SessionAt); c != 0 {
			return c
		}
		return cmpDesc(p.score[a], p.score[b])
	})
	var index []string
	for _, i := range order {
		x := p.exts[i]
		line := day(x.SessionAt) + " [recap](" + RecapPath(x.Slug) + ") session " + x.SessionRef
		if x.Task != "" {
			line += " — " + clip(x.Task, 120)
		}
		if x.Outcome != "" {
			line += " (" + string(x.Outcome) + ")"
		}
		index = append(index, line)
	}
	generated := map[string]bool{}
	for _, l := range slices.Concat(profile, prefs, tips) {
		generated[norm(l)] = true
	}
	carried := p.carriedFrom(p.in.Summary, generated)
	secs := []*v2Section{
		{v2Profile, profile, takeCarried(&carried, v2Profile, "", true)},
		{v2Prefs, prefs, takeCarried(&carried, v2Prefs, "", true)},
		{v2Tips, tips, takeCarried(&carried, v2Tips, "", true)},
		{v2Index, index, nil},
	}
	for _, c := range carried {
		secs[3].kept = append(secs[3].kept, c.raw)
	}
	limit := p.in.SummaryBytes
	if limit <= 0 {
		limit = SummaryV2MaxBytes
	}
	return fitV2(secs, limit)
}

// standing reports whether a statement line earned a place in a V2
// summary.
func (p *pass) standing(e *entry) bool {
	if e.manual {
		return true
	}
	for _, id := range e.ids {
		if defaultWords().MatchString(p.stmts[id].Object) {
			return true
		}
	}
	tasks := map[string]bool{}
	for _, i := range e.support {
		tasks[norm(firstNonEmpty(p.exts[i].Task, p.exts[i].SessionRef))] = true
	}
	return len(tasks) >= 2
}

// v2Section is one heading of the V2 summary: generated lines (pointers
// start with a date) and a person's lines kept from the file on disk.
type v2Section struct {
	title string
	items []string
	kept  []string
}

// fitV2 renders the sections under limit bytes. Pointers give way first,
// down to a floor of ten, then tips and preferences down to five, then
// whatever is left, last items first.
func fitV2(secs []*v2Section, limit int) string {
	size := len(SummaryMarker) + 1
	for _, s := range secs {
		size += len(s.title) + 5
		for _, k := range s.kept {
			size += len(k) + 1
		}
		if len(s.kept) == 0 {
			size += len("_Nothing yet._\n") // counted whether or not items remain
		}
		for _, it := range s.items {
			size += len(itemLine(it))
		}
	}
	floors := [][2]int{{3, 10}, {2, 5}, {1, 5}, {3, 0}, {2, 0}, {1, 0}, {0, 0}}
	for _, f := range floors {
		s := secs[f[0]]
		for size >= limit && len(s.items) > f[1] {
			size -= len(itemLine(s.items[len(s.items)-1]))
			s.items = s.items[:len(s.items)-1]
		}
	}
	var b strings.Builder
	b.WriteString(SummaryMarker + "\n")
	for _, s := range secs {
		b.WriteString("\n## " + s.title + "\n\n")
		for _, it := range s.items {
			b.WriteString(itemLine(it))
		}
		for _, k := range s.kept {
			b.WriteString(k + "\n")
		}
		if len(s.items)+len(s.kept) == 0 {
			b.WriteString("_Nothing yet._\n")
		}
	}
	if b.Len() >= limit {
		return clipLines(b.String(), limit-1)
	}
	return b.String()
}

// itemLine renders a list item; entry lines come with their marker.
func itemLine(it string) string {
	if strings.HasPrefix(it, "- ") {
		return it + "\n"
	}
	return "- " + it + "\n"
}

// clipLines cuts s to whole lines within n bytes.
func clipLines(s string, n int) string {
	s = clipBytes(s, n)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[:i+1]
	}
	return s
}

// pointerSlug reads the recap a V2 pointer line names.
var pointerSlug = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[recap\]\(rollout_summaries/([^)\s]+)\.md\)`) })

// removedPointers lists the recaps the pointers of before named that no
// line of after names any more.
func removedPointers(before, after string) []string {
	if before == after {
		return nil
	}
	var out []string
	for _, m := range pointerSlug().FindAllStringSubmatch(before, -1) {
		if !strings.Contains(after, "](rollout_summaries/"+m[1]+".md)") && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// day formats a time as its UTC date.
func day(t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	return t.UTC().Format("2006-01-02")
}
