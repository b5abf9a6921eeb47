package rank

import (
	"cmp"
	"math"
	"slices"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// Fusion is Fuse in two steps, for a caller that reads the raw layer's
// contexts (a part's neighbours, a read of their own) only where they can
// change the top of the list:
//
//  1. Plan orders every layer, scores the derived layers, and bounds each
//     raw row's score between its coverage without context and its
//     coverage with every term it lacks found in its context;
//  2. the caller fills the Context of the raw rows Need names;
//  3. Scores scores the raw rows and merges the layers.
//
// With keep > 0 only the top keep rows of Scores are exact: a raw row
// whose best possible score is below the keep-th best of the scores every
// row is sure of cannot reach the top keep, so its context is not asked
// for and it is left out of the list. With keep = 0 nothing is left out,
// and every raw row whose context could add a term is named.
type Fusion struct {
	w       Weights
	terms   []Term
	set     *text.TermSet
	derived []Scored       // the derived layers' rows, scored
	raw     []memory.Match // the raw layer's rows, in rank order
	body    []uint64       // the terms each raw row's own text holds
	lo, hi  []float64      // each raw row's least and greatest score
	bound   float64        // the least score a row of the top keep can have
}

// Plan starts a fusion of layers (see Fusion). It orders each layer's
// slice in place.
func Plan(w Weights, terms []Term, layers map[memory.Layer][]memory.Match, keep int) *Fusion {
	f := &Fusion{w: w, terms: terms, set: termSet(terms), bound: math.Inf(-1)}
	for _, l := range memory.Layers {
		cs := layers[l]
		Order(cs)
		if l == memory.L0 {
			f.raw = cs
			continue
		}
		i := 0
		for _, c := range cs {
			lex := matchCoverage(terms, f.set, c)
			if lex < w.DerivedFloor && !c.Pinned {
				continue
			}
			f.derived = append(f.derived, w.score(l, c, i, lex))
			i++
		}
	}
	f.body = make([]uint64, len(f.raw))
	f.lo = make([]float64, len(f.raw))
	f.hi = make([]float64, len(f.raw))
	all := f.set.All()
	for i, c := range f.raw {
		f.body[i] = f.set.Holds(clip(c.Text))
		f.lo[i] = w.score(memory.L0, c, i, coverage(terms, f.body[i], 0)).Score
		f.hi[i] = w.score(memory.L0, c, i, coverage(terms, f.body[i], all&^f.body[i])).Score
	}
	if keep > 0 && len(f.derived)+len(f.raw) > keep {
		sure := make([]float64, 0, len(f.derived)+len(f.raw))
		for _, s := range f.derived {
			sure = append(sure, s.Score)
		}
		sure = append(sure, f.lo...)
		slices.SortFunc(sure, func(a, b float64) int { return cmp.Compare(b, a) })
		f.bound = sure[keep-1]
	}
	return f
}

// Raw is the raw layer's rows in rank order, the slice Plan ordered: a
// caller sets the Context of the rows Need names through it.
func (f *Fusion) Raw() []memory.Match { return f.raw }

// Need lists the raw rows (indexes into Raw) with no context yet whose
// context could change the top of the list: their own text lacks a term
// their context could hold, and their best possible score reaches the
// top keep.
func (f *Fusion) Need() []int {
	var out []int
	for i, c := range f.raw {
		if c.Context == "" && f.hi[i] > f.lo[i] && f.hi[i] >= f.bound {
			out = append(out, i)
		}
	}
	return out
}

// Scores finishes the fusion: every layer merged, best first, without the
// raw rows that cannot reach the top keep.
func (f *Fusion) Scores() []Scored {
	out := slices.Clone(f.derived)
	all := f.set.All()
	for i, c := range f.raw {
		if f.hi[i] < f.bound {
			continue
		}
		var inContext uint64
		if c.Context != "" && f.body[i] != all {
			inContext = f.set.HoldsOf(clip(c.Context), all&^f.body[i])
		}
		out = append(out, f.w.score(memory.L0, c, i, coverage(f.terms, f.body[i], inContext)))
	}
	sortScored(out)
	return out
}
