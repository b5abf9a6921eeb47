package distill

import (
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// ConsolidateInput is what one phase 2 pass starts from.
type ConsolidateInput struct {
	// Extractions are the selected extractions, best first, with their
	// usage counts and last use. Empty ones are skipped.
	Extractions []memory.Extraction
	// Statements are the current L1 statements: notes, facts, and the
	// events extractions cite (a failure shield rests on its tool_error
	// event). A line whose statements are all missing is not regenerated.
	Statements []memory.Statement
	// Memory and Summary are MEMORY.md and memory_summary.md as they are
	// on disk now ("" when missing).
	Memory, Summary string
	// Skills are the SKILL.md files on disk now, by skill name.
	Skills map[string]string
	// Extensions are the files under extensions/ on disk now, by vault
	// path.
	Extensions map[string]string
	// Changes is the vault's diff since the last baseline.
	Changes []Change
	// Dropped are the keys of earlier passes' Edits.Drop.
	Dropped []string
	Mode    Mode
	Version string // V1 or V2; anything else is read as V1
	// SummaryTokens caps memory_summary.md in V1 (0: SummaryMaxTokens);
	// SummaryBytes caps it in V2 (0: SummaryV2MaxBytes).
	SummaryTokens int
	SummaryBytes  int
}

// Output is the new state of the vault's consolidated files.
type Output struct {
	// Memory is the full text of MEMORY.md; "" in V2, which keeps none.
	Memory string
	// Summary is the full text of memory_summary.md.
	Summary string
	// Skills maps each skill's name to its SKILL.md; a skill on disk that
	// is missing here is to be removed.
	Skills map[string]string
	// Edits are the hand edits found, for the caller to apply to the store.
	Edits Edits
	// NoOp is set when nothing would change: the files are as on disk and
	// no edit was found.
	NoOp bool
}

// pass is the state of one consolidation.
type pass struct {
	in      ConsolidateInput
	version string
	changes changeSet
	exts    []memory.Extraction // live: selected, not empty, recap not deleted
	raws    []rawMemory         // parsed raw memory of each live extraction
	score   []float64           // usage-and-recency score of each live extraction
	stmts   map[int64]memory.Statement
	edits   Edits
	page    pageEdits // hand edits of the page this version maintains
	dropped map[string]bool
	extFile map[string]string  // live extension files
	noteOf  map[int64][]string // live note files naming each statement
}

// Consolidate is phase 2 without a model. It honours hand edits (reported
// in Edits and already applied to the output), propagates deletions of
// recaps and extension files to everything that rested only on them,
// writes skills for procedures repeated across sessions, and rebuilds the
// summary last. The same input gives byte-identical output.
func Consolidate(in ConsolidateInput) Output {
	p := newPass(in)
	var out Output
	if p.version == V2 {
		out.Summary = p.summaryV2()
	} else {
		fams := p.families()
		skills := p.skills()
		p.attachSkills(fams, skills)
		out.Memory = p.handbook(fams)
		out.Skills = p.skillFiles(skills)
		out.Summary = p.summaryV1(fams, skills)
	}
	out.Edits = p.edits
	out.NoOp = out.Edits.Empty() && out.Summary == in.Summary &&
		(p.version == V2 || out.Memory == in.Memory && maps.Equal(out.Skills, nonNil(in.Skills)))
	return out
}

func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func newPass(in ConsolidateInput) *pass {
	p := &pass{in: in, version: V1, changes: newChangeSet(in.Changes), dropped: map[string]bool{}, stmts: map[int64]memory.Statement{}}
	if in.Version == V2 {
		p.version = V2
	}
	for _, k := range in.Dropped {
		p.dropped[k] = true
	}
	incremental := in.Mode != ModeInit
	if incremental {
		page, current := MemoryPath, in.Memory
		if p.version == V2 {
			page, current = SummaryPath, in.Summary
		}
		before := current
		if c, ok := p.changes[page]; ok && c.Kind == Modified {
			before = string(c.Before)
		}
		p.page = detectEdits(before, current)
		p.edits = p.page.Edits
		if p.version == V2 {
			// A pointer a person removed forgets its recap.
			for _, slug := range removedPointers(before, current) {
				p.edits.drop("r:" + slug)
			}
		}
		noteEdits(p.changes, &p.edits)
		for p2, c := range p.changes {
			if name, ok := skillName(p2); ok && c.Kind == Deleted {
				p.edits.drop("skill:" + name)
			}
		}
	}
	for _, k := range p.edits.Drop {
		p.dropped[k] = true
	}
	gone := p.changes.deletedRecaps()
	for _, x := range in.Extractions {
		switch {
		case x.Empty || x.Slug == "" || p.dropped["r:"+x.Slug]:
		case gone[x.Slug]:
			if incremental {
				p.edits.drop("r:" + x.Slug)
			}
		default:
			p.exts = append(p.exts, x)
		}
	}
	slices.Sort(p.edits.Drop)
	slices.Sort(p.edits.Retract)
	p.scoreExtractions()
	for _, x := range p.exts {
		p.raws = append(p.raws, parseRaw(x.RawMemory))
	}
	retracted := map[int64]bool{}
	for _, id := range p.edits.Retract {
		retracted[id] = true
	}
	for _, s := range newStmtView(in.Statements).all {
		if !retracted[s.ID] {
			p.stmts[s.ID] = s
		}
	}
	p.extFile = map[string]string{}
	for path, body := range in.Extensions {
		path = cleanPath(path)
		if c, ok := p.changes[path]; ok && c.Kind == Deleted {
			continue
		}
		p.extFile[path] = body
	}
	p.noteOf = map[int64][]string{}
	for _, path := range slices.Sorted(maps.Keys(p.extFile)) {
		if strings.HasPrefix(path, notesDir) {
			ids, _ := noteFile(path, []byte(p.extFile[path]))
			for _, id := range ids {
				p.noteOf[id] = append(p.noteOf[id], path)
			}
		}
	}
	return p
}

// scoreExtractions blends use and recency: log2(1+uses) plus a recency
// term that halves after 30 days, measured from the newest time in the
// input so that no clock is read.
func (p *pass) scoreExtractions() {
	var newest time.Time
	last := func(x memory.Extraction) time.Time {
		if x.LastUsedAt.After(x.SessionAt) {
			return x.LastUsedAt
		}
		return x.SessionAt
	}
	for _, x := range p.exts {
		if t := last(x); t.After(newest) {
			newest = t
		}
	}
	p.score = make([]float64, len(p.exts))
	for i, x := range p.exts {
		age := newest.Sub(last(x)).Hours() / 24
		if last(x).IsZero() {
			age = 3650
		}
		p.score[i] = math.Log2(1+float64(max(x.UsageCount, 0))) + 1/(1+age/30)
	}
}

// latest is the newest time of a live extraction.
func (p *pass) latest(i int) time.Time {
	x := p.exts[i]
	if x.LastUsedAt.After(x.SessionAt) {
		return x.LastUsedAt
	}
	return x.SessionAt
}

// supportOf lists the live extractions a statement rests on: those that
// cite it, and those of the sessions its evidence names.
func (p *pass) supportOf(s memory.Statement) []int {
	var out []int
	for i, x := range p.exts {
		if slices.Contains(x.Statements, s.ID) || slices.ContainsFunc(s.Evidence, func(e memory.Evidence) bool {
			return e.SessionID != 0 && e.SessionID == x.SessionID || e.SessionRef != "" && e.SessionRef == x.SessionRef
		}) {
			out = append(out, i)
		}
	}
	return out
}

// manual reports whether a statement rests on the store alone: a note a
// person wrote with no session behind it.
func manual(s memory.Statement) bool {
	for _, e := range s.Evidence {
		if e.SessionID != 0 || e.SessionRef != "" {
			return false
		}
	}
	return true
}
