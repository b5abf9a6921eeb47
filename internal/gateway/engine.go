package gateway

import (
	"context"
	"io"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/mcptools"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// Engine is what the gateway needs from one account's engine. The MCP
// tools' own port is part of it: /mcp serves the same engine.
type Engine interface {
	mcptools.Engine
	Standing(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, error)
	Recall(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, error)
	Receipts(ctx context.Context, provider memory.Provider, session string, limit int) ([]memory.Receipt, error)
	Write(ctx context.Context, w engine.Write) (engine.WriteResult, error)
	AsOf(ctx context.Context, q engine.FactQuery, t time.Time, clock temporal.Clock) ([]memory.Statement, error)
	Retract(ctx context.Context, id int64) (memory.Statement, error)
	Reopen(ctx context.Context, id int64) (memory.Statement, error)
	RememberAt(ctx context.Context, text, category string, class memory.Class, pin bool, p memory.Place) (engine.WriteResult, error)
	Undo(ctx context.Context, r engine.Ref) (any, error)
	EditNote(ctx context.Context, id int64, text string) (memory.Statement, error)
	MoveFact(ctx context.Context, id int64, p memory.Place, rung memory.Rung) (memory.Statement, error)
	Pin(ctx context.Context, r engine.Ref, pinned bool) (any, error)
	Import(ctx context.Context, req engine.ImportRequest) ([]engine.SourceReport, error)
	Sessions(ctx context.Context, limit int) ([]memory.SessionSummary, error)
	Session(ctx context.Context, ref string) (memory.Session, error)
	Export(ctx context.Context, w io.Writer) (int, error)
	Health(ctx context.Context) (memory.StoreHealth, error)
	Vault(ctx context.Context, version string) (engine.VaultFiles, error)
	VaultFileRead(ctx context.Context, path string) error
	VaultStatus(ctx context.Context, version string) (engine.VaultStatus, error)
	// Ingest stores sessions a client sent as records rather than as a
	// transcript file (single turns), through the import's one write path.
	Ingest(ctx context.Context, sessions []memory.Session) (engine.SourceReport, error)
	Purge(ctx context.Context) (memory.PurgeCounts, error)
	WorkOnce(ctx context.Context) (engine.WorkReport, error)
	WorkDue(ctx context.Context) (bool, error)
	Close() error
}

// Opener builds the engine of one account; resolve maps directories the
// account's clients reported onto places (the gateway cannot see them).
type Opener func(ctx context.Context, acct memory.AccountID, resolve engine.PlaceResolver) (Engine, error)
