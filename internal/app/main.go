package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// Set with -ldflags "-X github.com/cairn-memory/cairn/internal/app.version=…".
var (
	version = "dev"
	commit  = ""
)

// Main runs cairn with the given arguments and streams and returns the
// process exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFactory(stdin, stdout, stderr, os.Getenv)
	root := cli.NewRootCmd(f)
	root.SetArgs(args)
	err := cli.Classify(root.ExecuteContext(ctx))
	if err != nil {
		report(f, err)
	}
	return cli.ExitCode(err)
}

// report prints an error for the user and logs internal ones in full.
func report(f *cli.Factory, err error) {
	if err == cli.ErrSilent {
		return
	}
	msg := memory.ErrorMessage(err)
	code := memory.ErrorCode(err)
	if msg == "" {
		msg = err.Error()
	}
	if code == memory.CodeInternal {
		logError(f, err)
	}
	fmt.Fprintln(f.IO.ErrOut, "cairn: "+msg)
}

// logError appends an internal error to the data dir's log; failing to log
// must not hide the original error, so its own failure is ignored.
func logError(f *cli.Factory, err error) { logTo(f, "cairn.log", err) }

func logTo(f *cli.Factory, name string, err error) {
	p := f.Paths()
	if os.MkdirAll(p.LogDir, 0o700) != nil {
		return
	}
	lf, e := os.OpenFile(filepath.Join(p.LogDir, name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if e != nil {
		return
	}
	defer lf.Close()
	fmt.Fprintf(lf, "%s error: %v\n", time.Now().UTC().Format(time.RFC3339), err)
}

// places resolves directories onto the ladder for this process, keeping
// what it read: the resident process resolves the same worktree for
// every hook.
var places = gitdir.NewCache()

func newFactory(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *cli.Factory {
	f := &cli.Factory{
		IO:      cli.System(stdin, stdout, stderr, getenv),
		Getenv:  getenv,
		Version: buildInfo(),
	}
	f.Paths = func() config.Paths { return config.ResolvePaths(f.Home, getenv) }
	f.Spawn = func(args ...string) error {
		home := ""
		if f.Home != "" {
			home = f.Paths().DataDir
		}
		return spawnDetached(home, args...)
	}
	f.LogHook = func(err error) { logTo(f, "hooks.log", err) }
	f.Team = team{f: f}
	var (
		once   sync.Once
		loaded *config.Loaded
		cfgErr error
	)
	f.Config = func() (*config.Loaded, error) {
		once.Do(func() { loaded, cfgErr = config.Load(f.Paths().ConfigFile) })
		return loaded, cfgErr
	}
	f.OpenEngine = func(ctx context.Context, dbPath string, cfg config.Config) (*engine.Engine, error) {
		emb, err := embedder(cfg.Embeddings, getenv)
		if err != nil {
			return nil, err
		}
		db, err := sqlite.Open(ctx, dbPath)
		if err != nil {
			return nil, err
		}
		eng := engine.New(db, engine.Options{Config: cfg, Resolve: places.Resolve, Readers: readers(),
			Vaults: vaultOpener(f.Paths().DataDir), Extensions: extensionSources(getenv), Embedder: emb})
		if err := useModels(eng, cfg, getenv, func(msg string) { logTo(f, "models.log", fmt.Errorf("%s", msg)) }); err != nil {
			_ = eng.Close()
			return nil, err
		}
		// Candidates whose settling window passed while no cairn process
		// ran are promoted by the next one to open the store, so closing
		// the client never strands them.
		if f.Hook {
			// A hook only checks; the round (promotion, extraction,
			// consolidation) runs detached so the client never waits.
			if due, err := eng.WorkDue(ctx); err == nil && due {
				if err := f.StartWorker(); err != nil {
					logError(f, err)
				}
			}
		} else if !f.Worker { // a worker's round maintains, under its lease
			if due, err := eng.MaintenanceDue(ctx); err == nil && due {
				if _, err := eng.Maintain(ctx); err != nil {
					logError(f, err)
				}
			}
		}
		return eng, nil
	}
	return f
}

func buildInfo() cli.BuildInfo {
	b := cli.BuildInfo{Version: version, Commit: commit, SchemaVersion: sqlite.SchemaVersion(), Go: runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && b.Commit == "" {
				b.Commit = s.Value
			}
		}
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	return b
}
