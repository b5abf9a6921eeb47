package distill

import (
	"math"
	"slices"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Sections of a task family in MEMORY.md, and the families that are not
// task groups.
const (
	secPreferences = "Preferences"
	secKnow        = "Knowledge"
	secShield      = "Failure shields"
	famEverywhere  = "Everywhere"
	famExtensions  = "Extensions"
	famByHand      = "Added by hand"
)

var sectionOrder = []string{secPreferences, secKnow, secShield}

// entry is one stating line of MEMORY.md before it is rendered.
type entry struct {
	section string
	text    string
	ids     []int64
	keys    []string
	support []int    // live extractions it rests on
	files   []string // extension files it rests on
	manual  bool     // a note a person wrote, with no session behind it
	score   float64
	sig     string // a failure shield's signature
	fam     string
	normed  string   // norm(text), for merging duplicates
	toks    []string // tokenSet(text), for merging near-duplicates
}

func (e *entry) anchor() Anchor { return Anchor{IDs: e.ids, Keys: e.keys} }

// family is one block of MEMORY.md: a task group in a place.
type family struct {
	name     string
	place    string
	scope    string
	exts     []int
	support  []int // every extraction behind the block, newest first
	entries  []*entry
	skills   []string
	keywords []string
	score    float64
}

// familyOf names the task family of an extraction.
func familyOf(x memory.Extraction) string {
	if g := strings.TrimSpace(x.TaskGroup); g != "" {
		return g
	}
	return placeName(x.Place, "") + " · general"
}

// scopeName names the place a statement is scoped to.
func scopeName(s memory.Scope) string {
	k := strings.TrimSuffix(strings.TrimRight(s.Key, "/\\"), "/.git")
	if n := lastElem(k); n != "" && k != "*" {
		return n
	}
	return "unplaced"
}

// entries gathers every line MEMORY.md will state, with its evidence.
func (p *pass) entries() []*entry {
	var out []*entry
	out = append(out, p.statementEntries()...)
	out = append(out, p.rawEntries()...)
	out = append(out, p.extensionEntries()...)
	return out
}

// statementEntries turns the current notes and facts into lines, merging
// duplicates. A statement that rests only on recaps no longer published
// is left out.
func (p *pass) statementEntries() []*entry {
	var out []*entry
	ids := make([]int64, 0, len(p.stmts))
	for id := range p.stmts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	best := map[*entry]memory.Statement{}
	// Each line's text and tokens, and how many lines hold each token: the
	// duplicate index looks lines up by their rarest tokens.
	texts := make(map[int64]string, len(ids))
	toks := make(map[int64][]string, len(ids))
	df := map[string]int{}
	for _, id := range ids {
		s := p.stmts[id]
		t := stmtText(s)
		if s.Tier == memory.TierInferred {
			t += " (inferred)"
		}
		texts[id], toks[id] = t, tokenSet(t)
		for _, tok := range toks[id] {
			df[tok]++
		}
	}
	buckets := map[string]*dupIndex{} // by section and family: only those can merge
	for _, id := range ids {
		s := p.stmts[id]
		section := ""
		switch {
		case s.Kind == memory.KindNote && s.Class == memory.ClassDecision:
			section = secKnow
		case s.Kind == memory.KindNote && s.Class != memory.ClassTask:
			section = secPreferences
		case s.Kind == memory.KindFact && s.Class != memory.ClassTask && !ephemeral[s.Predicate]:
			section = secKnow
		default:
			continue
		}
		sup, man := p.supportOf(s), manual(s)
		if len(sup) == 0 && !man {
			continue
		}
		t := texts[id]
		e := &entry{section: section, text: t, ids: []int64{id}, support: sup, files: p.noteOf[id], manual: man}
		e.fam = p.stmtFamily(s, sup)
		e.normed, e.toks = norm(t), toks[id]
		bucket := e.section + "\x1f" + e.fam
		ix := buckets[bucket]
		if ix == nil {
			ix = newDupIndex(df)
			buckets[bucket] = ix
		}
		if dup := ix.find(e); dup != nil {
			dup.ids = append(dup.ids, id)
			dup.support = union(dup.support, sup)
			dup.files = append(dup.files, e.files...)
			dup.manual = dup.manual || man
			if stronger(s, len(sup), best[dup], len(dup.support)) {
				dup.text, best[dup] = t, s
			}
			continue
		}
		best[e] = s
		ix.add(e)
		out = append(out, e)
	}
	for _, e := range out {
		e.score = p.supportScore(e.support)
		for _, id := range e.ids {
			e.score += math.Log2(1 + float64(max(p.stmts[id].UsageCount, 0)))
		}
		if e.manual {
			e.score++
		}
	}
	return out
}

// stronger reports whether statement a, with na supporting sessions,
// should give a merged line its words over b: a higher tier, then more
// support, then the fresher one.
func stronger(a memory.Statement, na int, b memory.Statement, nb int) bool {
	switch {
	case a.Tier.Rank() != b.Tier.Rank():
		return a.Tier.Rank() > b.Tier.Rank()
	case na != nb:
		return na > nb
	case !a.ValidAt.Equal(b.ValidAt):
		return a.ValidAt.After(b.ValidAt)
	}
	return a.ID > b.ID
}

// stmtFamily places a statement: standing rules of every place in the
// Everywhere block, others with the task family most of their sessions
// belong to, and a place's rules with no session in that place's general
// block.
func (p *pass) stmtFamily(s memory.Statement, sup []int) string {
	if s.Scope.Rung == memory.RungEverywhere || s.Scope.Rung == memory.RungNone {
		return famEverywhere
	}
	count := map[string]int{}
	best := ""
	for _, i := range sup {
		f := familyOf(p.exts[i])
		count[f]++
		if best == "" || count[f] > count[best] {
			best = f
		}
	}
	if best != "" {
		return best
	}
	return scopeName(s.Scope) + " · general"
}

// rawEntries turns the commands and failure shields of the live raw
// memories into lines. The same command, or the same failure, from two
// sessions is one line resting on both.
func (p *pass) rawEntries() []*entry {
	var out []*entry
	byKey := map[string]*entry{}
	for i, m := range p.raws {
		for _, l := range m.knowledge {
			if len(l.anchor.IDs) > 0 || len(l.anchor.Keys) == 0 {
				continue // facts come from the statements themselves
			}
			k := l.anchor.Keys[0]
			if p.dropped["k:"+k] {
				continue
			}
			if e := byKey["k:"+k]; e != nil {
				e.support = union(e.support, []int{i})
				continue
			}
			e := &entry{section: secKnow, text: l.text, keys: []string{k}, support: []int{i}}
			byKey["k:"+k] = e
			out = append(out, e)
		}
		for _, l := range m.shields {
			sh, ok := parseShield(l.text)
			if !ok {
				continue
			}
			var ids []int64
			for _, id := range l.anchor.IDs {
				if _, ok := p.stmts[id]; ok {
					ids = append(ids, id)
				}
			}
			var keys []string
			for _, k := range l.anchor.Keys {
				if !p.dropped["k:"+k] {
					keys = append(keys, k)
				}
			}
			if len(ids) == 0 && len(keys) == 0 {
				continue // its evidence was retracted or dropped
			}
			sig := "sig:" + signature(sh.symptom)
			if e := byKey[sig]; e != nil {
				e.ids = union64(e.ids, ids)
				e.keys = unionStr(e.keys, keys)
				e.support = union(e.support, []int{i})
				continue
			}
			e := &entry{section: secShield, text: l.text, ids: ids, keys: keys, support: []int{i}, sig: sig}
			byKey[sig] = e
			out = append(out, e)
		}
	}
	for _, e := range out {
		e.fam = familyOf(p.exts[e.support[0]])
		e.score = p.supportScore(e.support)
		slices.Sort(e.ids)
	}
	return out
}

func (p *pass) supportScore(sup []int) float64 {
	s := 0.0
	for _, i := range sup {
		s += p.score[i]
	}
	return s
}

// families groups the entries into blocks: Everywhere first, then each
// place's task families (places by their best family's score, families by
// score), extension pointers last. Empty families are left out.
func (p *pass) families() []*family {
	byName := map[string]*family{}
	get := func(name string) *family {
		if f := byName[name]; f != nil {
			return f
		}
		f := &family{name: name}
		byName[name] = f
		return f
	}
	for i, x := range p.exts {
		f := get(familyOf(x))
		f.exts = append(f.exts, i)
	}
	for _, e := range p.entries() {
		f := get(e.fam)
		f.entries = append(f.entries, e)
	}
	var fams []*family
	for _, f := range byName {
		p.fillFamily(f)
		fams = append(fams, f)
	}
	placeScore := map[string]float64{}
	for _, f := range fams {
		placeScore[f.place] = math.Max(placeScore[f.place], f.score)
	}
	rankOf := func(f *family) int {
		switch f.name {
		case famEverywhere:
			return 0
		case famExtensions:
			return 2
		}
		return 1
	}
	slices.SortFunc(fams, func(a, b *family) int {
		if ra, rb := rankOf(a), rankOf(b); ra != rb {
			return ra - rb
		}
		if a.place != b.place {
			if sa, sb := placeScore[a.place], placeScore[b.place]; sa != sb {
				return cmpDesc(sa, sb)
			}
			return strings.Compare(a.place, b.place)
		}
		if a.score != b.score {
			return cmpDesc(a.score, b.score)
		}
		return strings.Compare(a.name, b.name)
	})
	return fams
}

// fillFamily sets a family's place, scope, sessions, keywords and score,
// and orders its lines.
func (p *pass) fillFamily(f *family) {
	switch {
	case f.name == famEverywhere:
		f.scope = "every place: the user's standing rules"
	case f.name == famExtensions:
		f.scope = "files under `extensions/`"
		f.place = "~"
	case len(f.exts) > 0:
		x := p.exts[f.exts[0]]
		f.place = placeName(x.Place, "")
		f.scope = placeScope(x.Place)
	default:
		f.place, _, _ = strings.Cut(f.name, " · ")
		if len(f.entries) > 0 {
			if s, ok := p.stmts[firstID(f.entries)]; ok {
				f.scope = string(s.Scope.Rung) + " " + code(s.Scope.Key)
			}
		}
	}
	sup := slices.Clone(f.exts)
	for _, e := range f.entries {
		sup = union(sup, e.support)
	}
	slices.SortStableFunc(sup, func(a, b int) int {
		if c := p.latest(b).Compare(p.latest(a)); c != 0 {
			return c
		}
		return a - b
	})
	f.support = sup
	f.score = p.supportScore(f.exts)
	if len(f.exts) == 0 {
		for _, e := range f.entries {
			f.score += e.score
		}
	}
	weight := map[string]float64{}
	var order []string
	for _, i := range f.exts {
		for _, k := range p.exts[i].Keywords {
			if _, ok := weight[k]; !ok {
				order = append(order, k)
			}
			weight[k] += 1 + p.score[i]
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmpDesc(weight[a], weight[b]) })
	if len(order) > 10 {
		order = order[:10]
	}
	f.keywords = order
	slices.SortStableFunc(f.entries, func(a, b *entry) int {
		if a.score != b.score {
			return cmpDesc(a.score, b.score)
		}
		return strings.Compare(a.text, b.text)
	})
}

// placeScope describes a place for a family's scope line.
func placeScope(pl memory.Place) string {
	s := code(firstNonEmpty(pl.Worktree, pl.Project, "unplaced"))
	if pl.Repo != "" {
		s += " (repo " + pl.Repo + ")"
	}
	return s
}

func firstID(es []*entry) int64 {
	for _, e := range es {
		if len(e.ids) > 0 {
			return e.ids[0]
		}
	}
	return 0
}
