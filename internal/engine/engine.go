package engine

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
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
	JobStore
	LeaseStore
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
	// sessionExtractor is phase 1; owner names this process in leases.
	sessionExtractor SessionExtractor
	owner            string
	vaults           vaults
	extensions       []ExtensionSource
	// acct is the account every read and write is for.
	acct memory.AccountID
	// models are the phases' model providers (UseModels); zero: none.
	models modelState
	// semantic is the optional semantic leg of search; nil: lexical only.
	semantic *semantic
	// later tracks receipt writes run after their blocks went out.
	later laterReceipts
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
	// SessionExtractor is phase 1; nil: the deterministic extractor.
	SessionExtractor SessionExtractor
	// Owner names this process in job claims and leases; empty: host,
	// process id and a random suffix.
	Owner string
	// Vaults opens the memory files of a version; nil: no memory files
	// (phase 2 and the summary slot are off).
	Vaults VaultOpener
	// Extensions are other agents' memory folders mirrored into the vault.
	Extensions []ExtensionSource
	// Account is whose memory this engine serves; zero: the local user.
	// A gateway builds one engine per account.
	Account memory.AccountID
	// Embedder gives search a semantic leg; nil: lexical only.
	Embedder Embedder
}

// New builds an engine over a store.
func New(store Store, o Options) *Engine {
	e := &Engine{store: store, cfg: o.Config, resolve: o.Resolve, now: o.Now, readers: o.Readers, extractor: o.Extractor,
		sessionExtractor: o.SessionExtractor, owner: o.Owner}
	e.semantic = newSemantic(o.Embedder, store)
	if e.sessionExtractor == nil {
		e.sessionExtractor = deterministicExtractor{}
	}
	e.vaults.open, e.extensions, e.acct = o.Vaults, o.Extensions, o.Account
	if e.acct == 0 {
		e.acct = memory.LocalAccount
	}
	if o.Vaults != nil {
		e.vaultSummary = func() string { return e.summaryText(context.Background()) }
	}
	if e.owner == "" {
		e.owner = processOwner()
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.resolve == nil {
		e.resolve = func(dir string) (memory.Place, error) { return memory.Place{Worktree: dir, Project: dir}, nil }
	}
	return e
}

// processOwner names this process uniquely among cairn processes: two
// processes on one host never share a name, even after a pid is reused.
func processOwner() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%x", host, os.Getpid(), b)
}

// Config is the configuration the engine runs with.
func (e *Engine) Config() config.Config { return e.cfg }

// Close releases the store and the memory folders.
func (e *Engine) Close() error {
	e.vaults.mu.Lock()
	for _, v := range e.vaults.byV {
		if c, ok := v.(interface{ Close() error }); ok {
			_ = c.Close()
		}
	}
	e.vaults.byV = nil
	e.vaults.mu.Unlock()
	return e.store.Close()
}

// Health reports on the store.
func (e *Engine) Health(ctx context.Context) (memory.StoreHealth, error) {
	return e.store.Health(ctx)
}

// Place resolves a directory onto the ladder.
func (e *Engine) Place(dir string) (memory.Place, error) { return e.resolve(dir) }
