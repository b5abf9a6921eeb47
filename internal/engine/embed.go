package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/redact"
	"github.com/cairn-memory/cairn/internal/vector"
)

// Embedder turns texts into vectors with one model: an OpenAI-compatible
// /v1/embeddings endpoint (adapter openaiembed).
type Embedder interface {
	Model() string
	Embed(ctx context.Context, inputs []string) ([][]float32, error)
}

// EmbeddingStore keeps vectors beside the rows they stand for, each with
// the model that made it and its dimension. A store without it has no
// semantic leg.
type EmbeddingStore interface {
	DueForEmbedding(ctx context.Context, acct memory.AccountID, layer memory.Layer, model string, dim, maxChars, limit int) ([]vector.Doc, error)
	NewestUnembedded(ctx context.Context, acct memory.AccountID, model string, dim int) (bool, error)
	SaveEmbeddings(ctx context.Context, acct memory.AccountID, layer memory.Layer, model string, ids []int64, vecs [][]float32) error
	EmbeddingsSince(ctx context.Context, acct memory.AccountID, layer memory.Layer, model string, seq int64) ([]vector.Stored, error)
	EmbeddingEpoch(ctx context.Context) (int64, error)
	EmbeddingCounts(ctx context.Context, acct memory.AccountID, model string) (map[memory.Layer][2]int, error)
	MatchRows(ctx context.Context, acct memory.AccountID, layer memory.Layer, ids []int64, q memory.SearchQuery) ([]memory.Match, error)
}

// embedLayers are the layers with vectors, smallest first so a round with
// a budget reaches the derived rows before the raw ones. The profile (L3)
// is one row a place and is always read.
var embedLayers = []memory.Layer{memory.L1, memory.L2, memory.L0}

// semantic is the optional semantic leg: the embedder, its store and the
// in-memory indexes, loaded lazily on the first search and brought up to
// date on each one.
type semantic struct {
	emb   Embedder
	store EmbeddingStore

	mu      sync.Mutex
	loaded  bool
	epoch   int64
	indexes map[memory.Layer]*layerIndex
}

// layerIndex is one layer's vectors from the configured model, read up to
// seq.
type layerIndex struct {
	idx *vector.Index
	seq int64
	// ignored counts vectors of another dimension: never mixed in.
	ignored int
}

// newSemantic is nil, and search lexical only, unless an embedder is
// configured and the store keeps vectors.
func newSemantic(emb Embedder, store Store) *semantic {
	es, ok := store.(EmbeddingStore)
	if emb == nil || !ok {
		return nil
	}
	return &semantic{emb: emb, store: es}
}

// SemanticSearch reports whether searches have a semantic leg.
func (e *Engine) SemanticSearch() bool { return e.semantic != nil }

// EmbedReport says what one embedding pass did.
type EmbedReport struct {
	Model    string               `json:"model,omitempty"`
	Embedded map[memory.Layer]int `json:"embedded,omitempty"`
	Requests int                  `json:"requests,omitempty"`
	Took     time.Duration        `json:"took_ns"`
}

// EmbeddingsDue is the cheap check a hook makes: the newest row of some
// layer has no vector from the configured model (new rows, or a model
// change).
func (e *Engine) EmbeddingsDue(ctx context.Context) (bool, error) {
	if e.semantic == nil {
		return false, nil
	}
	return e.semantic.store.NewestUnembedded(ctx, e.acct, e.semantic.emb.Model(), e.cfg.Embeddings.Dimensions)
}

// EmbedDue is the background job of the semantic leg: it embeds the rows
// that have no vector from the configured model (new rows, and after a
// model change every row, newest first), at most embeddings.per_round of
// them, and stores each vector beside its row. Texts are redacted again
// before they leave the machine. With no endpoint configured it does
// nothing.
func (e *Engine) EmbedDue(ctx context.Context) (EmbedReport, error) {
	start := time.Now()
	rep := EmbedReport{Embedded: map[memory.Layer]int{}}
	s := e.semantic
	if s == nil {
		return rep, nil
	}
	c := e.cfg.Embeddings
	model := s.emb.Model()
	rep.Model = model
	budget := c.PerRound
	red := redact.Default()
	for _, l := range embedLayers {
		for budget > 0 {
			docs, err := s.store.DueForEmbedding(ctx, e.acct, l, model, c.Dimensions, c.MaxChars, min(budget, c.Batch*8))
			if err != nil {
				return rep, err
			}
			if len(docs) == 0 {
				break
			}
			for from := 0; from < len(docs); from += c.Batch {
				batch := docs[from:min(from+c.Batch, len(docs))]
				ids := make([]int64, len(batch))
				texts := make([]string, len(batch))
				for i, d := range batch {
					ids[i] = d.ID
					texts[i], _ = red.Redact(d.Text)
				}
				vecs, err := e.embed(ctx, texts, time.Duration(c.Timeout))
				rep.Requests++
				if err != nil {
					rep.Took = time.Since(start)
					return rep, err
				}
				if err := s.store.SaveEmbeddings(ctx, e.acct, l, model, ids, vecs); err != nil {
					return rep, err
				}
				rep.Embedded[l] += len(batch)
				budget -= len(batch)
			}
		}
	}
	rep.Took = time.Since(start)
	return rep, nil
}

// embed asks the endpoint for one batch within timeout and checks what it
// got: one vector per text, of the configured dimension when one is set.
func (e *Engine) embed(ctx context.Context, texts []string, timeout time.Duration) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	vecs, err := e.semantic.emb.Embed(ctx, texts)
	if err != nil {
		return nil, memory.Wrap(memory.CodeUnavailable, "embeddings endpoint", err)
	}
	if len(vecs) != len(texts) {
		return nil, memory.Errorf(memory.CodeUnavailable, "embeddings endpoint: %d vectors for %d texts", len(vecs), len(texts))
	}
	if want := e.cfg.Embeddings.Dimensions; want > 0 {
		for _, v := range vecs {
			if len(v) != want {
				return nil, memory.Errorf(memory.CodeInvalid,
					"embeddings endpoint: model %s answered %d dimensions, embeddings.dimensions is %d; set it to 0 or to the model's size",
					e.semantic.emb.Model(), len(v), want)
			}
		}
	}
	return vecs, nil
}

// refresh brings the layer indexes up to the store for vectors of dim
// dimensions: everything again after a deletion or a change of dimension,
// otherwise only what was written since the last read.
func (s *semantic) refresh(ctx context.Context, acct memory.AccountID, dim int) error {
	epoch, err := s.store.EmbeddingEpoch(ctx)
	if err != nil {
		return err
	}
	reset := !s.loaded || epoch != s.epoch
	for _, li := range s.indexes {
		if li.idx.Dim() != dim {
			reset = true
		}
	}
	if reset {
		s.indexes = map[memory.Layer]*layerIndex{}
		s.epoch, s.loaded = epoch, true
	}
	model := s.emb.Model()
	for _, l := range embedLayers {
		li := s.indexes[l]
		if li == nil {
			li = &layerIndex{idx: vector.New(dim)}
			s.indexes[l] = li
		}
		rows, err := s.store.EmbeddingsSince(ctx, acct, l, model, li.seq)
		if err != nil {
			return err
		}
		for _, r := range rows {
			li.seq = max(li.seq, r.Seq)
			if err := li.idx.Put(r.ID, r.Vec); err != nil {
				// Another dimension, or no direction: never mixed in.
				li.idx.Remove(r.ID)
				li.ignored++
			}
		}
	}
	return nil
}

// Embeddings counts, per layer, the rows with a vector from the configured
// model and the rows that could have one.
func (e *Engine) Embeddings(ctx context.Context) (map[memory.Layer][2]int, error) {
	if e.semantic == nil {
		return nil, nil
	}
	return e.semantic.store.EmbeddingCounts(ctx, e.acct, e.semantic.emb.Model())
}

func (r EmbedReport) String() string {
	return fmt.Sprintf("embedded %d statements, %d episodes, %d parts with %s in %d requests",
		r.Embedded[memory.L1], r.Embedded[memory.L2], r.Embedded[memory.L0], r.Model, r.Requests)
}
