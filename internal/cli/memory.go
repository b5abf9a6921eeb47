package cli

import (
	"context"
	"io"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/remote"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// Memory is what the memory commands (recall, search, remember, fact,
// notes, sessions, import, vault …) use. The local engine satisfies it,
// and so does the gateway client: with CAIRN_URL and CAIRN_TOKEN set the
// same commands read and write the team's memory.
type Memory interface {
	Standing(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, error)
	Recall(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, error)
	Receipts(ctx context.Context, provider memory.Provider, session string, limit int) ([]memory.Receipt, error)
	Search(ctx context.Context, req engine.SearchRequest) (engine.SearchResult, error)

	Write(ctx context.Context, w engine.Write) (engine.WriteResult, error)
	Remember(ctx context.Context, text, category string, class memory.Class, pin bool, cwd string) (engine.WriteResult, error)
	Forget(ctx context.Context, r engine.Ref) (any, error)
	Undo(ctx context.Context, r engine.Ref) (any, error)
	Pin(ctx context.Context, r engine.Ref, pinned bool) (any, error)
	Notes(ctx context.Context, all, episodes bool) (engine.NotesView, error)
	EditNote(ctx context.Context, id int64, text string) (memory.Statement, error)
	MoveFactFrom(ctx context.Context, id int64, dir string, rung memory.Rung) (memory.Statement, error)

	Facts(ctx context.Context, q engine.FactQuery) (engine.FactsView, error)
	Timeline(ctx context.Context, q engine.FactQuery, clock temporal.Clock, since, until time.Time) ([]memory.Statement, error)
	AsOf(ctx context.Context, q engine.FactQuery, t time.Time, clock temporal.Clock) ([]memory.Statement, error)
	Retract(ctx context.Context, id int64) (memory.Statement, error)
	Reopen(ctx context.Context, id int64) (memory.Statement, error)
	Export(ctx context.Context, w io.Writer) (int, error)

	Sessions(ctx context.Context, limit int) ([]memory.SessionSummary, error)
	Session(ctx context.Context, ref string) (memory.Session, error)
	Import(ctx context.Context, req engine.ImportRequest) ([]engine.SourceReport, error)

	// Vault is the folder of a memory version ("" for the one in force);
	// VaultFileRead counts a read of one of its files as a use.
	Vault(ctx context.Context, version string) (engine.VaultFiles, error)
	VaultFileRead(ctx context.Context, path string) error
	VaultStatus(ctx context.Context, version string) (engine.VaultStatus, error)

	Close() error
}

var (
	_ Memory = (*engine.Engine)(nil)
	_ Memory = (*remote.Client)(nil)
)

// Memory opens the memory the commands work on: the gateway's in remote
// mode, else this machine's store.
func (f *Factory) Memory(ctx context.Context) (Memory, error) {
	rc, err := f.remote()
	if err != nil {
		return nil, err
	}
	if rc != nil {
		return rc, nil
	}
	return f.Engine(ctx)
}

// errLocalOnly refuses, in remote mode, a command that works on this
// machine's store: running it would create or change a store the user
// does not use.
var errLocalOnly = memory.Errorf(memory.CodeInvalid,
	"this command works on this machine's store, and CAIRN_URL and CAIRN_TOKEN make this cairn a client of the gateway; "+
		"run it on the gateway's machine, or unset CAIRN_URL and CAIRN_TOKEN to use the local store")
