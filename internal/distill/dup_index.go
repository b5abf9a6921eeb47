package distill

import "math"

// A line is a duplicate of an earlier one in its block when both say the
// same words (normed text), or both have at least dupMinTokens tokens and
// their token sets' Jaccard similarity is at least dupJaccard.
const (
	dupMinTokens = 4
	dupJaccard   = 0.85
)

// dupIndex finds the first earlier line a new one duplicates without
// comparing it with every line of the block: comparing each line with all
// before it took minutes for a store of 100k statements. Lines with the
// same words are found by their normed text; nearly the same sets through
// prefix filtering: two sorted sets whose Jaccard similarity reaches t
// share a token among the first n - ⌈t·n⌉ + 1 tokens of each (n its size;
// any fixed order of tokens will do, and the sets are sorted).
type dupIndex struct {
	lines  []*entry
	normed map[string]int   // the first line of each normed text
	post   map[string][]int // a prefix token's lines, in order
}

func newDupIndex() *dupIndex {
	return &dupIndex{normed: map[string]int{}, post: map[string][]int{}}
}

// find returns the earliest line added that e duplicates, or nil.
func (x *dupIndex) find(e *entry) *entry {
	best := len(x.lines)
	if i, ok := x.normed[e.normed]; ok {
		best = i
	}
	if len(e.toks) >= dupMinTokens {
		for _, t := range e.toks[:dupPrefix(len(e.toks))] {
			for _, i := range x.post[t] {
				if i >= best {
					break
				}
				if jaccard(x.lines[i].toks, e.toks) >= dupJaccard {
					best = i
					break
				}
			}
		}
	}
	if best == len(x.lines) {
		return nil
	}
	return x.lines[best]
}

// add makes e a line later ones may duplicate.
func (x *dupIndex) add(e *entry) {
	i := len(x.lines)
	x.lines = append(x.lines, e)
	if _, ok := x.normed[e.normed]; !ok {
		x.normed[e.normed] = i
	}
	if len(e.toks) >= dupMinTokens {
		for _, t := range e.toks[:dupPrefix(len(e.toks))] {
			x.post[t] = append(x.post[t], i)
		}
	}
}

// dupPrefix is how many of a set's n tokens are indexed and looked up.
// The small allowance keeps the prefix long enough when t·n lands a
// rounding error above an integer; a longer prefix only costs lookups.
func dupPrefix(n int) int {
	return min(n, n-int(math.Ceil(dupJaccard*float64(n)-1e-9))+1)
}
