package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/evaluate"
	"github.com/cairn-memory/cairn/internal/memory"
)

// EvalLegs are a retrieval evaluation's figures with the lexical legs
// alone and with the semantic leg fused in, over the same loaded store.
type EvalLegs struct {
	Lexical evaluate.Report `json:"lexical"`
	Fused   evaluate.Report `json:"fused"`
	Model   string          `json:"embedding_model"`
	// Embedded counts the rows that got a vector, per layer.
	Embedded map[memory.Layer]int `json:"embedded"`
	// Failed counts questions whose semantic leg failed (and were
	// answered lexically).
	Failed int `json:"semantic_failed"`
}

// EvalRetrievalLegs loads a benchmark once, embeds every row, then asks
// every question twice: lexical only, and fused. Without an endpoint it
// is an error: there is nothing to compare.
func (e *Engine) EvalRetrievalLegs(ctx context.Context, ds evaluate.Dataset, o EvalOptions) (EvalLegs, error) {
	var out EvalLegs
	if e.semantic == nil {
		return out, memory.Errorf(memory.CodeInvalid, "no embeddings endpoint configured: set embeddings.base_url and embeddings.model")
	}
	places, err := e.evalLoad(ctx, ds)
	if err != nil {
		return out, err
	}
	out.Model, out.Embedded = e.semantic.emb.Model(), map[memory.Layer]int{}
	for {
		rep, err := e.EmbedDue(ctx)
		if err != nil {
			return out, err
		}
		n := 0
		for l, c := range rep.Embedded {
			out.Embedded[l] += c
			n += c
		}
		if n == 0 {
			break
		}
	}
	if out.Lexical, err = e.evalAsk(ctx, ds, places, o, true); err != nil {
		return out, err
	}
	failed := 0
	o.onSearch = func(r SearchResult) {
		if r.Semantic != SemanticFused {
			failed++
		}
	}
	if out.Fused, err = e.evalAsk(ctx, ds, places, o, false); err != nil {
		return out, err
	}
	out.Failed = failed
	return out, nil
}
