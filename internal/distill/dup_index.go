package distill

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

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
// prefix filtering: two sets whose Jaccard similarity reaches t share a
// token among the first n - ⌈t·n⌉ + 1 tokens of each (n its size), in any
// order of tokens fixed for the whole block. Rarest first keeps the
// lists short: a word most lines hold would otherwise head every prefix.
type dupIndex struct {
	lines  []*entry
	normed map[string]int   // the first line of each normed text
	post   map[string][]int // a prefix token's lines, in order
	df     map[string]int   // how many lines hold each token: the order
	buf    []string
}

// newDupIndex prepares an index whose token order is the rarity of each
// token among all the lines it may be given (df); a token df lacks sorts
// first. Any df gives the same answers, only sooner or later.
func newDupIndex(df map[string]int) *dupIndex {
	return &dupIndex{normed: map[string]int{}, post: map[string][]int{}, df: df}
}

// prefix is the tokens of e that are indexed and looked up: the rarest.
func (x *dupIndex) prefix(e *entry) []string {
	x.buf = append(x.buf[:0], e.toks...)
	slices.SortFunc(x.buf, func(a, b string) int {
		return cmp.Or(cmp.Compare(x.df[a], x.df[b]), strings.Compare(a, b))
	})
	return x.buf[:dupPrefix(len(x.buf))]
}

// find returns the earliest line added that e duplicates, or nil.
func (x *dupIndex) find(e *entry) *entry {
	best := len(x.lines)
	if i, ok := x.normed[e.normed]; ok {
		best = i
	}
	if len(e.toks) >= dupMinTokens {
		for _, t := range x.prefix(e) {
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
		for _, t := range x.prefix(e) {
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
