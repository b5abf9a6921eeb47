package rank

import (
	"math"
	"slices"
	"sort"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// Weights are the fusion knobs (config: rank.*).
type Weights struct {
	Layer        map[memory.Layer]float64
	RankShare    float64 // 0.6 in the seed
	LexicalShare float64 // 0.4 in the seed
	PinBoost     float64
	// DerivedFloor is the least coverage a row of a derived layer (L1,
	// L2, L3) needs to be ranked at all: a note that shares one word with
	// the request is noise, and the best of a few such notes would
	// otherwise take its layer's full rank score.
	DerivedFloor float64
}

// Term is a query term with its inverse document frequency.
type Term struct {
	Text string
	IDF  float64
}

// Scored is a candidate with its score and the parts it was built from.
type Scored struct {
	memory.Match
	Score     float64 `json:"score"`
	RankScore float64 `json:"rank_score"`
	Lexical   float64 `json:"lexical_score"`
	Weight    float64 `json:"layer_weight"`
	LayerRank int     `json:"layer_rank"` // 1-based position inside its layer
	// Similarity is the semantic leg's cosine similarity of the row to
	// the query; 0 when that leg is off or did not find the row.
	Similarity float64 `json:"similarity,omitempty"`
}

// coverageChars bounds how much of a candidate is tokenized to measure
// coverage: the start of a long tool output says what it is about, and the
// cost must stay small on every prompt (tokenizing is most of a fusion's
// time: 120 candidates of 4 KiB took 3–5 ms).
const coverageChars = 2048

// IDF is BM25's inverse document frequency, never negative; 0 for a term
// no document holds (it informs nothing).
func IDF(df, docs int) float64 {
	if docs <= 0 {
		return 1
	}
	if df <= 0 {
		return 0
	}
	return math.Log(1 + (float64(docs)-float64(df)+0.5)/(float64(df)+0.5))
}

// Order sorts one layer's candidates into its internal rank: BM25 first,
// then the newer row, then the higher id, so equal scores never reorder
// between runs.
func Order(cs []memory.Match) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.BM25 != b.BM25 {
			return a.BM25 > b.BM25
		}
		if !a.Time.Equal(b.Time) {
			return a.Time.After(b.Time)
		}
		return a.ID > b.ID
	})
}

// RankScore is the reciprocal rank of a 0-based position inside a layer:
// 1 for the best candidate, 1/2 for the next, and so on.
func RankScore(pos int) float64 { return 1 / float64(pos+1) }

// ContextShare is the credit a query term earns when it appears only in a
// row's context (a part's neighbours) and not in the row itself.
const ContextShare = 0.5

// Coverage is the lexical score: the share of the query's information a
// row holds,
//
//	Σ credit(t)·idf(t) / Σ idf(t)  over the query terms t,
//
// where credit is 1 for a term in the row's own text, ContextShare for a
// term only in its context, and 0 otherwise. A term the index has never
// seen (idf 0) carries no information anyone could hold and is left out;
// when no term has any, every term weighs 1.
func Coverage(terms []Term, body, context []string) float64 {
	return coverage(terms, inTokens(terms, body), inTokens(terms, context))
}

// inTokens is the mask of the terms among tokens.
func inTokens(terms []Term, tokens []string) uint64 {
	var m uint64
	for i, t := range terms {
		if i < 64 && slices.Contains(tokens, t.Text) {
			m |= 1 << i
		}
	}
	return m
}

// coverage is Coverage with the terms found in the body and in the
// context given as masks (bit i for terms[i]).
func coverage(terms []Term, body, context uint64) float64 {
	if len(terms) == 0 {
		return 0
	}
	weighted := false
	for _, t := range terms {
		if t.IDF > 0 {
			weighted = true
		}
	}
	var got, all float64
	for i, t := range terms {
		w := t.IDF
		if !weighted {
			w = 1
		}
		all += w
		switch bit := uint64(1) << i; {
		case i >= 64:
		case body&bit != 0:
			got += w
		case context&bit != 0:
			got += w * ContextShare
		}
	}
	if all <= 0 {
		return 0
	}
	return got / all
}

// termSet is the terms as a text.TermSet, which finds them in a text
// without tokenizing all of it (tokenizing was most of a fusion's time).
func termSet(terms []Term) *text.TermSet {
	ts := make([]string, len(terms))
	for i, t := range terms {
		ts[i] = t.Text
	}
	return text.NewTermSet(ts)
}

// matchCoverage is Coverage of a candidate's text and context, each cut
// to coverageChars. The context is read only for terms the body lacks.
func matchCoverage(terms []Term, set *text.TermSet, c memory.Match) float64 {
	body := set.Holds(clip(c.Text))
	if c.Context == "" || body == set.All() {
		return coverage(terms, body, 0)
	}
	// Only the terms the body lacks are looked for in the context.
	return coverage(terms, body, set.HoldsOf(clip(c.Context), set.All()&^body))
}

func clip(s string) string {
	if len(s) > coverageChars {
		return s[:coverageChars]
	}
	return s
}

// Fuse ranks each layer's candidates, scores them with the seed's formula
// and merges the layers into one list, best first. Matches must come
// from distinct rows.
func Fuse(w Weights, terms []Term, layers map[memory.Layer][]memory.Match) []Scored {
	return Plan(w, terms, layers, 0).Scores()
}

// score is the seed's formula for a row of layer l at 0-based position pos
// of that layer with lexical score lex.
func (w Weights) score(l memory.Layer, c memory.Match, pos int, lex float64) Scored {
	weight := w.Layer[l]
	rs := RankScore(pos)
	conf := c.Confidence
	if conf <= 0 {
		conf = 1
	}
	score := weight * (rs*w.RankShare + lex*w.LexicalShare) * conf
	if c.Pinned {
		score += w.PinBoost
	}
	return Scored{Match: c, Score: score, RankScore: rs, Lexical: lex, Weight: weight, LayerRank: pos + 1}
}

// sortScored puts the best first; equal scores go by layer, then the
// newer row, then the higher id, so the order never varies between runs.
func sortScored(out []Scored) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Layer != b.Layer {
			return layerOrder(a.Layer) < layerOrder(b.Layer)
		}
		if !a.Time.Equal(b.Time) {
			return a.Time.After(b.Time)
		}
		return a.ID > b.ID
	})
}

func layerOrder(l memory.Layer) int {
	for i, x := range memory.Layers {
		if x == l {
			return i
		}
	}
	return len(memory.Layers)
}
