package tui

import (
	"context"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// Engine is what the memory manager uses of the engine: listing, search,
// the row changes (forget, undo, pin, edit), and the global switches for
// the banner.
type Engine interface {
	Notes(ctx context.Context, all, episodes bool) (engine.NotesView, error)
	Search(ctx context.Context, req engine.SearchRequest) (engine.SearchResult, error)
	Forget(ctx context.Context, r engine.Ref) (any, error)
	Undo(ctx context.Context, r engine.Ref) (any, error)
	Pin(ctx context.Context, r engine.Ref, pinned bool) (any, error)
	EditNote(ctx context.Context, id int64, text string) (memory.Statement, error)
	Switches(ctx context.Context) (engine.Switches, error)
}
