package redact

import (
	"slices"
	"sync"
)

// KindPrivate is the kind Find and Match report for a <private> span.
// It never appears in a marker: private spans are removed, not replaced.
const KindPrivate = "private"

// Finding is one secret (or private span) found in a text. Start and End
// are byte offsets into the text that was searched.
type Finding struct {
	Kind       string
	Start, End int
}

// Redactor finds and replaces secrets. Build it once with New (or use
// Default); it holds no state that changes, so it is safe for concurrent
// use.
type Redactor struct {
	// byFirst dispatches rules that need no particular byte after the run;
	// byAfter[c] those whose run must be followed by c. Lists keep the
	// declaration order, where a longer prefix comes before a shorter one.
	byFirst dispatch
	byAfter [256]*dispatch
	kinds   []string
}

// New compiles the rule set.
func New() *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, rl := range allRules() {
		d := &r.byFirst
		if rl.after != 0 {
			if r.byAfter[rl.after] == nil {
				r.byAfter[rl.after] = new(dispatch)
			}
			d = r.byAfter[rl.after]
		}
		for i := 0; i < len(rl.first); i++ {
			d.add(rl.first[i], rl)
		}
		seen[rl.kind] = true
	}
	for _, k := range contextKinds {
		seen[k] = true
	}
	for k := range seen {
		r.kinds = append(r.kinds, k)
	}
	slices.Sort(r.kinds)
	return r
}

// dispatch lists the rules by the first byte of a run, with the shortest
// run any of them can match, so most runs are turned away by one compare.
type dispatch struct {
	rules  [256][]*rule
	minRun [256]int
}

func (d *dispatch) add(c byte, rl *rule) {
	if len(d.rules[c]) == 0 || rl.minRun < d.minRun[c] {
		d.minRun[c] = rl.minRun
	}
	d.rules[c] = append(d.rules[c], rl)
}

var shared = sync.OnceValue(New)

// Default returns a Redactor shared by the whole process, built on first
// use.
func Default() *Redactor { return shared() }

// Kinds lists every kind a marker can name, sorted.
func (r *Redactor) Kinds() []string { return slices.Clone(r.kinds) }

// Redact removes private spans, replaces every secret with its marker and
// returns the new text with the number of spans removed or replaced. Text
// with nothing to redact is returned as is, without copying.
func (r *Redactor) Redact(s string) (string, int) {
	st := stripPrivate(s)
	hits, out := r.find(st.text)
	return out, st.removed + len(hits)
}

// Find reports what Redact would remove or replace, in order, with offsets
// into s. Private spans have the kind KindPrivate. A secret that only forms
// once a private span is cut out is reported over the span.
func (r *Redactor) Find(s string) []Finding {
	st := stripPrivate(s)
	var out []Finding
	for _, g := range st.gaps(len(s)) {
		out = append(out, Finding{KindPrivate, g.from, g.to})
	}
	hits, _ := r.find(st.text)
	for _, h := range hits {
		out = append(out, Finding{h.kind, st.orig(h.start, false), st.orig(h.end, true)})
	}
	slices.SortFunc(out, func(x, y Finding) int {
		if x.Start != y.Start {
			return x.Start - y.Start
		}
		return y.End - x.End
	})
	return out
}

// Match reports the kind of the first secret in s, for write points that
// refuse credential-shaped values. It never returns the value itself. A
// private span counts: a value that holds one must not be stored either.
func (r *Redactor) Match(s string) (kind string, ok bool) {
	st := stripPrivate(s)
	if hits, _ := r.find(st.text); len(hits) > 0 {
		return hits[0].kind, true
	}
	if st.removed > 0 {
		return KindPrivate, true
	}
	return "", false
}

// hit is a finding in the scanned text, with the priority that settles
// overlaps.
type hit struct {
	start, end int
	kind       string
	prio       int8
}

// merge sorts hits and folds overlapping ones into their union, named by
// the most specific rule among them.
func merge(hs []hit) []hit {
	if len(hs) < 2 {
		return hs
	}
	slices.SortFunc(hs, func(x, y hit) int {
		if x.start != y.start {
			return x.start - y.start
		}
		return y.end - x.end
	})
	out := hs[:1]
	for _, h := range hs[1:] {
		last := &out[len(out)-1]
		if h.start < last.end {
			if h.prio > last.prio {
				last.kind, last.prio = h.kind, h.prio
			}
			last.end = max(last.end, h.end)
			continue
		}
		out = append(out, h)
	}
	return out
}
