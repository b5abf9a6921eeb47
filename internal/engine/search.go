package engine

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/rank"
	"github.com/cairn-memory/cairn/internal/text"
)

// SearchStore finds candidates in each layer's index.
type SearchStore interface {
	SearchLayer(ctx context.Context, acct memory.AccountID, layer memory.Layer, q memory.SearchQuery) ([]memory.Match, error)
	TermStats(ctx context.Context, acct memory.AccountID, layer memory.Layer, terms []string) (memory.TermStats, error)
	// PartContexts reads parts' contexts (their neighbours' starts) for a
	// search that asked SearchLayer to skip them.
	PartContexts(ctx context.Context, acct memory.AccountID, parts []memory.Match) ([]string, error)
}

// SearchRequest is one search, by a person, an agent or recall.
type SearchRequest struct {
	Query  string
	Layers []memory.Layer // empty: every layer
	// Cwd places the search; Place, when set, is used as is.
	Cwd            string
	Place          *memory.Place
	Rung           memory.Rung // widest rung read; empty: worktree
	ExcludeSession int64
	Since, Until   time.Time
	Limit          int
	// Lexical leaves the semantic leg out even when embeddings are
	// configured (the eval's baseline).
	Lexical bool
}

// SearchResult is the fused list and what it was built from.
type SearchResult struct {
	Query string        `json:"query"`
	Terms []string      `json:"terms"`
	Place memory.Place  `json:"place"`
	Rung  memory.Rung   `json:"rung"`
	Hits  []rank.Scored `json:"hits"`
	Took  time.Duration `json:"took_ns"`
	// Semantic says whether the semantic leg took part: empty when off,
	// "fused", or "failed: …" when the search fell back to lexical.
	Semantic string `json:"semantic,omitempty"`
}

// candidatesPerLayer is how deep each layer is read before fusion: deeper
// than any budget, so fusion chooses and the layers do not.
const candidatesPerLayer = 60

// Search runs a query through every requested layer and fuses the results.
func (e *Engine) Search(ctx context.Context, req SearchRequest) (SearchResult, error) {
	start := time.Now()
	res := SearchResult{Query: req.Query, Rung: req.Rung}
	if res.Rung == memory.RungNone {
		res.Rung = memory.RungWorktree
	}
	if req.Place != nil {
		res.Place = *req.Place
	} else {
		if req.Cwd == "" {
			return res, memory.Errorf(memory.CodeInvalid, "search needs a place: give a directory (--cwd)")
		}
		p, err := e.resolve(req.Cwd)
		if err != nil {
			return res, err
		}
		res.Place = p
	}
	terms, stats, err := e.queryTerms(ctx, req.Query)
	if err != nil {
		return res, err
	}
	res.Terms = make([]string, len(terms))
	for i, t := range terms {
		res.Terms[i] = t.Text
	}
	if len(terms) == 0 {
		res.Took = time.Since(start)
		return res, nil
	}
	layers := req.Layers
	if len(layers) == 0 {
		layers = memory.Layers
	}
	depth := candidatesPerLayer
	if req.Limit > depth {
		depth = req.Limit
	}
	found := map[memory.Layer][]memory.Match{}
	match, all, together := matchTerms(terms, stats)
	for _, l := range layers {
		q := memory.SearchQuery{
			Terms: res.Terms, Match: match, MatchAll: all, Together: together, Place: res.Place, Rung: res.Rung,
			ExcludeSession: req.ExcludeSession, Since: req.Since, Until: req.Until, Limit: depth,
			// A lexical fusion of a few hits reads the parts' neighbours only
			// for the rows they can lift into those hits.
			SkipContext: l == memory.L0 && e.lexicalOnly(req) && req.Limit > 0,
		}
		cs, err := e.store.SearchLayer(ctx, e.acct, l, q)
		if err != nil {
			return res, err
		}

		found[l] = cs
	}
	hits, sem, err := e.fuse(ctx, req, res, terms, found, depth)
	if err != nil {
		return res, err
	}
	res.Semantic = sem
	if req.Limit > 0 && len(hits) > req.Limit {
		hits = hits[:req.Limit]
	}
	res.Hits = hits
	res.Took = time.Since(start)
	return res, nil
}

// A search's cost grows with the rows its terms select in the raw layer:
// FTS5's bm25 reads each selected row's sizes and positions (about a
// microsecond a row here) and counts every row of each term to weigh it.
// In a big store a term held by half the documents selects tens of
// thousands of rows for a few points of score. So a search whose terms
// select at most exactRows is ranked over all of them, as on LoCoMo
// (5,882 turns), where leaving common terms out lost 6 points of R@50.
// Beyond that the rarest terms, selecting rareRows at most together,
// choose and rank the rows; the others still count in the lexical score
// (coverage). When even the rarest term selects more, the newest rows
// holding the allTerms rarest terms together are read, unranked.
//
// A sampled count that reached the store's cap says only "at least": in a
// store of 100k parts a term at the cap may select 5,000 rows or 60,000.
// Such a term could select anything up to the whole layer, so a search
// that holds one is exact only when the whole layer is within exactRows.
// A term the sample lacks but older documents hold (a ticket id from last
// month) is rare, not absent: the rows holding it are ranked rather than
// the newest rows of the common terms, which would leave it out.
const (
	exactRows = 10000
	rareRows  = 1500
	allTerms  = 3
)

// matchTerms is the part of the query the indexes are asked for (nil: all
// of it), whether every one of those terms is required, and the common
// terms a derived layer's rows holding all of them are read by too.
//
// The last is set when only terms the raw layer's newest rows lack were
// kept (an old ticket id): they are rare in turns, but a rule or an
// episode that matches the rest of the request need not hold them, and
// ranking the derived layers on them alone left such rows out (a pinned
// rule worded as the request missed from its block).
func matchTerms(terms []rank.Term, st memory.TermStats) (match []string, all bool, together []string) {
	if len(terms) == 0 || st.Docs == 0 {
		return nil, false, nil
	}
	scale := float64(max(st.Total, st.Docs)) / float64(st.Docs)
	rows := func(t string) float64 { return float64(st.DF[t]) * scale }
	var sum, most float64
	for _, t := range terms {
		r := rows(t.Text)
		sum += r
		if st.Cap > 0 && st.DF[t.Text] >= st.Cap {
			r = float64(st.Total)
		}
		most += r
	}
	if sum <= exactRows && min(most, float64(st.Total)) <= exactRows {
		return nil, false, nil
	}
	sorted := make([]string, len(terms))
	for i, t := range terms {
		sorted[i] = t.Text
	}
	sort.SliceStable(sorted, func(i, j int) bool { return rows(sorted[i]) < rows(sorted[j]) })
	var keep, seen []string
	var sel float64
	older := false
	for _, t := range sorted {
		r := rows(t)
		if r == 0 {
			// Unseen among the newest documents: rare if anywhere.
			keep = append(keep, t)
			older = older || st.Older[t]
			continue
		}
		seen = append(seen, t)
		if sel+r > rareRows {
			continue
		}
		sel += r
		keep = append(keep, t)
	}
	rarest := seen[:min(allTerms, len(seen))]
	switch {
	case sel > 0 || len(seen) == 0:
		return keep, false, nil
	case older:
		return keep, false, commonWords(seen, keep)
	}
	return rarest, true, nil
}

// commonWords is what a derived layer's rows must hold together beside
// the kept rare terms: the allTerms rarest of the seen ones that are not
// pieces of a kept term ("web" of "web-1009" is the ticket's own prefix,
// not a word of the request), and only when at least two are left. A
// single common word selects thousands of rows: at 1M parts "infra" of
// INFRA-6041 had the statements layer rank 11,000 rows for a block that
// wanted the ticket (BENCHMARKS.md, hook, twelfth pass).
func commonWords(seen, keep []string) []string {
	var out []string
	for _, t := range seen {
		if len(out) == allTerms {
			break
		}
		if !slices.ContainsFunc(keep, func(k string) bool { return pieceOf(t, k) }) {
			out = append(out, t)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// pieceOf reports whether t is one of the pieces compound splits into at
// the characters the index keeps inside tokens ("web" of "web-1009").
func pieceOf(t, compound string) bool {
	if t == compound {
		return false
	}
	for _, p := range strings.FieldsFunc(compound, func(r rune) bool { return strings.ContainsRune("_-./", r) }) {
		if p == t {
			return true
		}
	}
	return false
}

// queryTerms picks the most informative terms of a query, weighted by the
// raw layer's statistics (the largest, so the steadiest).
func (e *Engine) queryTerms(ctx context.Context, q string) ([]rank.Term, memory.TermStats, error) {
	cands := text.QueryTokens(q)
	if len(cands) == 0 {
		return nil, memory.TermStats{}, nil
	}
	uniq := make([]string, 0, len(cands))
	seen := map[string]bool{}
	for _, c := range cands {
		if !seen[c] {
			seen[c] = true
			uniq = append(uniq, c)
		}
	}
	st, err := e.store.TermStats(ctx, e.acct, memory.L0, uniq)
	if err != nil {
		return nil, st, err
	}
	max := e.cfg.Search.MaxQueryTerms
	if max <= 0 {
		max = text.DefaultMaxTerms
	}
	df := func(t string) (int, int) { return st.DF[t], st.Docs }
	chosen := text.QueryTerms(q, max, df)
	out := make([]rank.Term, len(chosen))
	for i, t := range chosen {
		out[i] = rank.Term{Text: t, IDF: rank.IDF(st.DF[t], st.Docs)}
	}
	return out, st, nil
}

func (e *Engine) weights() rank.Weights {
	r := e.cfg.Rank
	return rank.Weights{
		Layer:        map[memory.Layer]float64{memory.L1: r.WeightL1, memory.L2: r.WeightL2, memory.L0: r.WeightL0, memory.L3: r.WeightL3},
		RankShare:    r.RankShare,
		LexicalShare: r.LexicalShare,
		PinBoost:     r.PinBoost,
		DerivedFloor: r.DerivedFloor,
	}
}
