package distill

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/text"
)

// The summary's first line: its format version (not the pipeline
// version). A summary that does not start with it is regenerated whole.
const SummaryMarker = "<!-- cairn memory summary v1 -->"

// Caps of memory_summary.md (seed 001).
const (
	SummaryMaxTokens  = 2500
	SummaryV2MaxBytes = 10000
)

// Bounds on the V1 summary's lists before the cap trims them.
const (
	maxTopPrefs = 8
	maxTips     = 10
	maxRoutes   = 40
	maxItem     = 300
)

// SummaryValid reports whether a summary starts with the format marker;
// when it does not, the caller regenerates it wholesale.
func SummaryValid(s string) bool {
	first, _, _ := strings.Cut(s, "\n")
	return strings.TrimRight(first, " \r") == SummaryMarker
}

// summaryV1 rebuilds memory_summary.md from the final MEMORY.md families
// and skills: a short profile, the top preferences, tips, and a routing
// index that says what to search for and where, ranked by use and
// recency, cut to the token cap.
func (p *pass) summaryV1(fams []*family, skills []*skill) string {
	head := SummaryMarker + "\n# Memory summary\n\n" +
		"_What cairn remembers, in brief. Search MEMORY.md for a block's name or keywords; open a recap or skill only when it would change the answer._\n"
	secs := []*recapSection{
		{"Profile", p.profile()},
		{"Top preferences", p.topPrefs(fams)},
		{"Tips", p.tips(fams, skills)},
		{"Routing index", p.routes(fams)},
	}
	limit := p.in.SummaryTokens
	if limit <= 0 {
		limit = SummaryMaxTokens
	}
	return fitTokens(head, secs, limit)
}

// profile says where and with what the user works, from the sessions
// alone: no trait is inferred.
func (p *pass) profile() []string {
	type pl struct {
		name string
		n    int
		last string
		sc   float64
	}
	byName := map[string]*pl{}
	var clients []string
	for i, x := range p.exts {
		n := placeName(x.Place, "")
		e := byName[n]
		if e == nil {
			e = &pl{name: n}
			byName[n] = e
		}
		e.n++
		e.sc += p.score[i]
		if d := day(x.SessionAt); d > e.last {
			e.last = d
		}
		clients = unionStr(clients, []string{string(x.Provider)})
	}
	var places []*pl
	for _, e := range byName {
		places = append(places, e)
	}
	slices.SortFunc(places, func(a, b *pl) int {
		if a.sc != b.sc {
			return cmpDesc(a.sc, b.sc)
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	if len(places) > 0 {
		var ws []string
		for i, e := range places {
			if i == 6 {
				ws = append(ws, "and "+plural(len(places)-6, "more place", "more places"))
				break
			}
			ws = append(ws, e.name+" ("+plural(e.n, "session", "sessions")+", last "+e.last+")")
		}
		out = append(out, "Works in: "+strings.Join(ws, ", ")+".")
	}
	slices.Sort(clients)
	if len(clients) > 0 && clients[0] != "" {
		out = append(out, "Clients: "+strings.Join(clients, ", ")+".")
	}
	if len(out) == 0 {
		out = append(out, "No sessions learned from yet.")
	}
	return out
}

// topPrefs lists the standing rules most sessions support.
func (p *pass) topPrefs(fams []*family) []string {
	type pref struct {
		e   *entry
		fam string
	}
	var ps []pref
	for _, f := range fams {
		for _, e := range f.entries {
			if e.section == secPreferences {
				ps = append(ps, pref{e, f.name})
			}
		}
	}
	slices.SortStableFunc(ps, func(a, b pref) int {
		if wa, wb := weight(a.e), weight(b.e); wa != wb {
			return wb - wa
		}
		return cmpDesc(a.e.score, b.e.score)
	})
	var out []string
	for i, x := range ps {
		if i == maxTopPrefs {
			break
		}
		line := clip(x.e.text, maxItem)
		if x.fam != famEverywhere {
			line += " (" + x.fam + ")"
		}
		out = append(out, line)
	}
	return out
}

// weight is how many sources stand behind a line: its sessions, and a
// person's own note counts as one more.
func weight(e *entry) int {
	if e.manual {
		return len(e.support) + 1
	}
	return len(e.support)
}

// tips point at the skills and failure shields worth knowing exist.
func (p *pass) tips(fams []*family, skills []*skill) []string {
	var out []string
	sk := slices.Clone(skills)
	slices.SortStableFunc(sk, func(a, b *skill) int { return len(b.sessions) - len(a.sessions) })
	for _, s := range sk {
		what := stepsPhrase(s.keys)
		if s.fix {
			what = s.symptom
		}
		out = append(out, "Skill ["+s.name+"]("+SkillPath(s.name)+"): "+clip(what, 160)+" ("+plural(len(s.sessions), "session", "sessions")+").")
	}
	type tip struct {
		e   *entry
		fam string
	}
	var ts []tip
	for _, f := range fams {
		for _, e := range f.entries {
			if e.section == secShield {
				ts = append(ts, tip{e, f.name})
			}
		}
	}
	slices.SortStableFunc(ts, func(a, b tip) int { return cmpDesc(a.e.score, b.e.score) })
	for _, t := range ts {
		sh, _ := parseShield(t.e.text)
		out = append(out, t.fam+": "+clip(sh.symptom, 160)+" has a failure shield in MEMORY.md.")
	}
	if len(out) > maxTips {
		out = out[:maxTips]
	}
	return out
}

// routes is the routing index: each block of MEMORY.md with when it was
// last used and what to search for, the most used and most recent first.
func (p *pass) routes(fams []*family) []string {
	fs := slices.Clone(fams)
	slices.SortStableFunc(fs, func(a, b *family) int { return cmpDesc(a.score, b.score) })
	var out []string
	for _, f := range fs {
		if f.name == famEverywhere || len(f.entries) == 0 && len(f.exts) == 0 {
			continue
		}
		line := "**" + f.name + "**"
		var facts []string
		if len(f.support) > 0 {
			last := ""
			for _, i := range f.support {
				last = max(last, day(p.exts[i].SessionAt))
			}
			facts = append(facts, "last session "+last, plural(len(f.support), "session", "sessions"))
			uses := 0
			for _, i := range f.support {
				uses += p.exts[i].UsageCount
			}
			if uses > 0 {
				facts = append(facts, "used "+strconv.Itoa(uses)+"×")
			}
		}
		if len(facts) > 0 {
			line += " (" + strings.Join(facts, ", ") + ")"
		}
		line += ": search MEMORY.md for \"" + f.name + "\""
		if len(f.keywords) > 0 {
			kw := f.keywords
			if len(kw) > 6 {
				kw = kw[:6]
			}
			line += " or " + strings.Join(kw, ", ")
		}
		if len(f.skills) > 0 {
			line += "; skills: " + strings.Join(f.skills, ", ")
		}
		out = append(out, clip(line, maxItem)+".")
		if len(out) == maxRoutes {
			break
		}
	}
	return out
}

// fitTokens renders head and sections within limit estimated tokens,
// trimming the longest list from its end; every section keeps at least
// one item while any can give one up. The estimate of a text is at most
// the sum of its lines' estimates, so the cut is planned on those and
// checked once on the whole.
func fitTokens(head string, secs []*recapSection, limit int) string {
	cost := text.EstimateTokens(head)
	for _, s := range secs {
		cost += text.EstimateTokens("\n## " + s.title + "\n\n")
		cost += text.EstimateTokens("_Nothing yet._\n")
		for _, it := range s.items {
			cost += text.EstimateTokens("- " + it + "\n")
		}
	}
	for cost > limit {
		longest := -1
		for i, s := range secs {
			if len(s.items) > 1 && (longest < 0 || len(s.items) >= len(secs[longest].items)) {
				longest = i
			}
		}
		if longest < 0 {
			for i := len(secs) - 1; i >= 0; i-- {
				if len(secs[i].items) > 0 {
					longest = i
					break
				}
			}
		}
		if longest < 0 {
			break
		}
		s := secs[longest]
		cost -= text.EstimateTokens("- " + s.items[len(s.items)-1] + "\n")
		s.items = s.items[:len(s.items)-1]
	}
	var b strings.Builder
	b.WriteString(head)
	for _, s := range secs {
		b.WriteString("\n## " + s.title + "\n\n")
		if len(s.items) == 0 {
			b.WriteString("_Nothing yet._\n")
			continue
		}
		for _, it := range s.items {
			b.WriteString("- " + it + "\n")
		}
	}
	if out := b.String(); text.EstimateTokens(out) <= limit {
		return out
	}
	return clipTokens(b.String(), limit)
}

// clipTokens cuts s, line by line, to fit in limit estimated tokens.
func clipTokens(s string, limit int) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if text.EstimateTokens(b.String()+line) > limit {
			break
		}
		b.WriteString(line)
	}
	return b.String()
}
