package engine

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// RememberAt is Remember with the place already resolved: a gateway is
// sent the place by a client whose directories it cannot see.
func (e *Engine) RememberAt(ctx context.Context, text, category string, class memory.Class, pin bool, p memory.Place) (WriteResult, error) {
	if class == "" {
		class = memory.ClassPreference
	}
	res, err := e.Write(ctx, Write{
		Draft:  memory.Draft{Kind: memory.KindNote, Object: text, Category: category, Class: class, Pinned: pin, Evidence: memory.Evidence{Source: "api"}},
		Writer: memory.WriterCLI, Place: &p,
	})
	if err == nil {
		res.Warning = e.noteChanged(ctx, res.Statement)
	}
	return res, err
}

// Account is whose memory this engine serves.
func (e *Engine) Account() memory.AccountID { return e.acct }
