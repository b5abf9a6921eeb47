package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// PartReader reads one raw part with where it came from.
type PartReader interface {
	Part(ctx context.Context, acct memory.AccountID, id int64) (memory.Match, error)
}

// Statement reads one note or fact with its evidence.
func (e *Engine) Statement(ctx context.Context, id int64) (memory.Statement, error) {
	return e.store.Statement(ctx, e.acct, id)
}

// Episode reads one episode.
func (e *Engine) Episode(ctx context.Context, id int64) (memory.Episode, error) {
	return e.store.Episode(ctx, e.acct, id)
}

// Part reads one raw part.
func (e *Engine) Part(ctx context.Context, id int64) (memory.Match, error) {
	return e.store.Part(ctx, e.acct, id)
}
