package webui

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// Engine is what the pages need from one account's engine.
type Engine interface {
	Effective(ctx context.Context) (config.Config, map[string]string, error)
	SetSetting(ctx context.Context, key, value string) error

	Notes(ctx context.Context, all, episodes bool) (engine.NotesView, error)
	Search(ctx context.Context, req engine.SearchRequest) (engine.SearchResult, error)
	RememberAt(ctx context.Context, text, category string, class memory.Class, pin bool, p memory.Place) (engine.WriteResult, error)
	EditNote(ctx context.Context, id int64, text string) (memory.Statement, error)
	Forget(ctx context.Context, r engine.Ref) (any, error)
	Undo(ctx context.Context, r engine.Ref) (any, error)
	Pin(ctx context.Context, r engine.Ref, pinned bool) (any, error)

	Facts(ctx context.Context, q engine.FactQuery) (engine.FactsView, error)
	Timeline(ctx context.Context, q engine.FactQuery, clock temporal.Clock, since, until time.Time) ([]memory.Statement, error)
	AsOf(ctx context.Context, q engine.FactQuery, t time.Time, clock temporal.Clock) ([]memory.Statement, error)
	MoveFact(ctx context.Context, id int64, p memory.Place, rung memory.Rung) (memory.Statement, error)
	Retract(ctx context.Context, id int64) (memory.Statement, error)
	Reopen(ctx context.Context, id int64) (memory.Statement, error)

	Sessions(ctx context.Context, limit int) ([]memory.SessionSummary, error)
	Session(ctx context.Context, ref string) (memory.Session, error)
	Receipts(ctx context.Context, provider memory.Provider, session string, limit int) ([]memory.Receipt, error)
	SessionPolicy(ctx context.Context, provider memory.Provider, session string) (recall.Preset, error)
	SetSessionPreset(ctx context.Context, provider memory.Provider, session, preset string) (recall.Preset, error)

	HasVault() bool
	VaultStatus(ctx context.Context, version string) (engine.VaultStatus, error)
	Vault(ctx context.Context, version string) (engine.VaultFiles, error)
	VaultList(ctx context.Context, dir string) ([]string, error)
	VaultRead(ctx context.Context, path string) (string, error)

	Costs(ctx context.Context, since time.Time) (engine.CostReport, error)
}

var _ Engine = (*engine.Engine)(nil)
