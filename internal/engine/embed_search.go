package engine

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/rank"
	"github.com/cairn-memory/cairn/internal/redact"
)

// Semantic leg states, as a search result reports them.
const (
	SemanticOff    = ""         // no endpoint configured, or asked lexical only
	SemanticFused  = "fused"    // the legs were fused
	SemanticFailed = "failed: " // prefix; the search fell back to lexical only
)

// semanticWiden is how many more rows than needed the index is asked for,
// since the store's filters (place, session, time, liveness) drop some;
// semanticRounds bounds how often a search asks again, wider, when too
// few survive.
const (
	semanticWiden  = 4
	semanticRounds = 3
)

// fuse fuses the layers' candidates: by the seed's formula alone when the
// semantic leg is off, and with the semantic leg merged into each layer by
// reciprocal rank when it is on. A semantic leg that fails (endpoint down,
// slow past embeddings.query_timeout) leaves the search lexical: a search
// never fails for it, and the result says so.
func (e *Engine) fuse(ctx context.Context, req SearchRequest, res SearchResult, terms []rank.Term, found map[memory.Layer][]memory.Match, depth int) ([]rank.Scored, string, error) {
	if e.lexicalOnly(req) {
		hits, err := e.fuseLexical(ctx, req, terms, found)
		return hits, SemanticOff, err
	}
	q := memory.SearchQuery{Place: res.Place, Rung: res.Rung, ExcludeSession: req.ExcludeSession,
		Since: req.Since, Until: req.Until, Limit: depth}
	similar, err := e.semanticLeg(ctx, req, q, depth)
	if err != nil {
		return rank.Fuse(e.weights(), terms, found), SemanticFailed + err.Error(), nil
	}
	legs := make(map[memory.Layer]rank.Legs, len(found))
	for l, cs := range found {
		legs[l] = rank.Legs{Lexical: cs}
	}
	for l, ss := range similar {
		lg := legs[l]
		lg.Semantic = ss
		legs[l] = lg
	}
	c := e.cfg.Embeddings
	return rank.FuseHybrid(e.weights(), rank.Hybrid{K: c.RRFK, MinSimilarity: c.MinSimilarity}, terms, legs), SemanticFused, nil
}

// lexicalOnly reports whether a search fuses its layers without the
// semantic leg.
func (e *Engine) lexicalOnly(req SearchRequest) bool { return e.semantic == nil || req.Lexical }

// fuseLexical fuses the layers, reading the raw rows' contexts only for
// those that can reach the top req.Limit (all of them with no limit).
func (e *Engine) fuseLexical(ctx context.Context, req SearchRequest, terms []rank.Term, found map[memory.Layer][]memory.Match) ([]rank.Scored, error) {
	f := rank.Plan(e.weights(), terms, found, req.Limit)
	if need := f.Need(); len(need) > 0 && req.Limit > 0 {
		raw := f.Raw()
		parts := make([]memory.Match, len(need))
		for j, i := range need {
			parts[j] = raw[i]
		}
		texts, err := e.store.PartContexts(ctx, e.acct, parts)
		if err != nil {
			return nil, err
		}
		for j, i := range need {
			raw[i].Context = texts[j]
		}
	}
	return f.Scores(), nil
}

// semanticLeg embeds the query and finds, in each requested layer that has
// vectors, the depth rows most similar to it that the search may show.
func (e *Engine) semanticLeg(ctx context.Context, req SearchRequest, q memory.SearchQuery, depth int) (map[memory.Layer][]rank.Similar, error) {
	s := e.semantic
	c := e.cfg.Embeddings
	text, _ := redact.Default().Redact(req.Query)
	if len(text) > c.MaxChars {
		text = text[:c.MaxChars]
	}
	qctx, cancel := context.WithTimeout(ctx, time.Duration(c.QueryTimeout))
	vecs, err := e.embed(qctx, []string{text}, time.Duration(c.QueryTimeout))
	cancel()
	if err != nil {
		return nil, err
	}
	qv := vecs[0]
	layers := req.Layers
	if len(layers) == 0 {
		layers = memory.Layers
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(ctx, e.acct, len(qv)); err != nil {
		return nil, err
	}
	out := map[memory.Layer][]rank.Similar{}
	for _, l := range layers {
		li := s.indexes[l]
		if li == nil || li.idx.Len() == 0 {
			continue
		}
		k := depth * semanticWiden
		for round := 0; ; round++ {
			hits := li.idx.Search(qv, k)
			ids := make([]int64, len(hits))
			for i, h := range hits {
				ids[i] = h.ID
			}
			ms, err := s.store.MatchRows(ctx, e.acct, l, ids, q)
			if err != nil {
				return nil, err
			}
			byID := make(map[int64]memory.Match, len(ms))
			for _, m := range ms {
				byID[m.ID] = m
			}
			var ss []rank.Similar
			for _, h := range hits {
				// Below the floor a row is not similar, only nearest.
				if float64(h.Score) < c.MinSimilarity {
					break
				}
				if m, ok := byID[h.ID]; ok && len(ss) < depth {
					ss = append(ss, rank.Similar{Match: m, Similarity: float64(h.Score)})
				}
			}
			if len(ss) >= depth || len(hits) < k || round+1 >= semanticRounds || float64(hits[len(hits)-1].Score) < c.MinSimilarity {
				out[l] = ss
				break
			}
			k *= semanticWiden
		}
	}
	return out, nil
}
