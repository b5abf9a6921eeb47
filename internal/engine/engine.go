package engine

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/memory"
)

// Store is the persistence port. It grows one role interface at a time;
// every store (SQLite, PostgreSQL) passes the same conformance suite.
type Store interface {
	Health(ctx context.Context) (memory.StoreHealth, error)
	Close() error
	TranscriptStore
	SearchStore
	StatementStore
	SettingStore
	CaptureQueue
	CaptureStore
	RecallStore
	UsageStore
	PendingStore
	PartReader
}

// PlaceResolver maps a directory onto the place ladder.
type PlaceResolver func(dir string) (memory.Place, error)

// Engine runs cairn's use cases over its ports.
type Engine struct {
	store     Store
	cfg       config.Config
	resolve   PlaceResolver
	now       func() time.Time
	readers   []Reader
	preds     predicateCache
	extractor TurnExtractor
	// vaultSummary reads the vault's memory_summary.md; nil: no vault.
	vaultSummary func() string
}

// Options configures New; zero fields take defaults.
type Options struct {
	Config  config.Config
	Resolve PlaceResolver
	Now     func() time.Time
	// Readers are the transcript importers, one per client.
	Readers []Reader
	// Extractor proposes facts from turns with a model; nil: none.
	Extractor TurnExtractor
}

// New builds an engine over a store.
func New(store Store, o Options) *Engine {
	e := &Engine{store: store, cfg: o.Config, resolve: o.Resolve, now: o.Now, readers: o.Readers, extractor: o.Extractor}
	if e.now == nil {
		e.now = time.Now
	}
	if e.resolve == nil {
		e.resolve = func(dir string) (memory.Place, error) { return memory.Place{Worktree: dir, Project: dir}, nil }
	}
	return e
}

// Config is the configuration the engine runs with.
func (e *Engine) Config() config.Config { return e.cfg }

// Close releases the store.
func (e *Engine) Close() error { return e.store.Close() }

// Health reports on the store.
func (e *Engine) Health(ctx context.Context) (memory.StoreHealth, error) {
	return e.store.Health(ctx)
}

// Place resolves a directory onto the ladder.
func (e *Engine) Place(dir string) (memory.Place, error) { return e.resolve(dir) }
