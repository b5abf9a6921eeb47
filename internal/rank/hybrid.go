package rank

import (
	"sort"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Similar is a row the semantic leg found, with its cosine similarity to
// the query.
type Similar struct {
	memory.Match
	Similarity float64
}

// Legs are one layer's two ranked lists of candidates.
type Legs struct {
	Lexical  []memory.Match // any order: ranked here as Order ranks
	Semantic []Similar      // most similar first
}

// Hybrid tunes the fusion of the two legs (config: embeddings.*).
type Hybrid struct {
	// K is reciprocal rank fusion's constant: a row at rank r of a leg
	// earns 1/(K+r). 60 is the value of the paper that proposed it.
	K float64
	// MinSimilarity keeps a derived row (note, fact, episode) that shares
	// too few words with the query to pass the lexical floor but is this
	// similar to it: what the semantic leg is for.
	MinSimilarity float64
}

// FuseHybrid is Fuse with a semantic leg. Inside each layer the lexical
// and semantic lists are merged by reciprocal rank fusion (a row's
// 1/(K+rank) summed over the legs that found it) and that merged order is
// the layer's internal rank; then the seed's formula scores and merges
// the layers as Fuse does, the lexical score still being the row's word
// coverage. With no semantic rows it returns what Fuse returns.
func FuseHybrid(w Weights, h Hybrid, terms []Term, layers map[memory.Layer]Legs) []Scored {
	var out []Scored
	set := termSet(terms)
	for _, l := range memory.Layers {
		legs := layers[l]
		Order(legs.Lexical)
		merged, sim := ReciprocalRank(h.K, legs.Lexical, legs.Semantic)
		i := 0
		for _, c := range merged {
			lex := matchCoverage(terms, set, c)
			s, similar := sim[c.ID]
			if l != memory.L0 && lex < w.DerivedFloor && !c.Pinned && !(similar && s >= h.MinSimilarity) {
				continue
			}
			sc := w.score(l, c, i, lex)
			sc.Similarity = s
			i++
			out = append(out, sc)
		}
	}
	sortScored(out)
	return out
}

// ReciprocalRank merges a ranked lexical list and a ranked semantic list
// of one layer into one order, best first, and returns the similarity of
// every row the semantic leg found. A row in both lists keeps the lexical
// match (its BM25 and context). Ties go to the better lexical rank, then
// the better semantic rank, so the order never depends on map iteration.
func ReciprocalRank(k float64, lexical []memory.Match, semantic []Similar) ([]memory.Match, map[int64]float64) {
	if len(semantic) == 0 {
		return lexical, nil
	}
	type entry struct {
		m        memory.Match
		score    float64
		lex, sem int // 1-based ranks; 0: not found by that leg
	}
	byID := map[int64]*entry{}
	var order []*entry
	for i, m := range lexical {
		e := &entry{m: m, score: 1 / (k + float64(i+1)), lex: i + 1}
		byID[m.ID] = e
		order = append(order, e)
	}
	sim := make(map[int64]float64, len(semantic))
	for i, s := range semantic {
		sim[s.ID] = s.Similarity
		e, ok := byID[s.ID]
		if !ok {
			e = &entry{m: s.Match}
			byID[s.ID] = e
			order = append(order, e)
		}
		if e.sem == 0 {
			e.sem = i + 1
			e.score += 1 / (k + float64(i+1))
		}
	}
	rankOf := func(r int) int {
		if r == 0 {
			return int(^uint(0) >> 1)
		}
		return r
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if rankOf(a.lex) != rankOf(b.lex) {
			return rankOf(a.lex) < rankOf(b.lex)
		}
		if rankOf(a.sem) != rankOf(b.sem) {
			return rankOf(a.sem) < rankOf(b.sem)
		}
		return a.m.ID > b.m.ID
	})
	out := make([]memory.Match, len(order))
	for i, e := range order {
		out[i] = e.m
	}
	return out, sim
}
