package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Purger is the store's operator cleanup: it physically deletes an
// account's retracted and forgotten rows, their index terms and the
// copies other tables hold of their text, then compacts the store so the
// text is in none of its bytes. A store that cannot purge does not
// implement it.
type Purger interface {
	Purge(ctx context.Context, acct memory.AccountID) (memory.PurgeCounts, error)
}

// Purge is the only physical delete in cairn, for an operator: agents and
// the hooks never reach it (they retract and forget, which keeps history).
func (e *Engine) Purge(ctx context.Context) (memory.PurgeCounts, error) {
	p, ok := e.store.(Purger)
	if !ok {
		return memory.PurgeCounts{}, memory.Errorf(memory.CodeUnavailable, "this store cannot purge yet")
	}
	return p.Purge(ctx, e.acct)
}
