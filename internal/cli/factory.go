package cli

import (
	"context"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
)

// Factory gives commands what they need, lazily: a command that never
// touches the store never opens it. The app package fills it in.
type Factory struct {
	IO      *IOStreams
	Getenv  func(string) string
	Version BuildInfo
	// Home is set from --home before any command runs.
	Home string
	// Paths resolves the data and config locations (after --home is known).
	Paths func() config.Paths
	// Config loads the effective configuration.
	Config func() (*config.Loaded, error)
	// Hook is set by hook commands: work that may not delay the client's
	// prompt (due maintenance) goes to a detached process.
	Hook bool
	// Worker is set by `cairn worker`: the round maintains under its
	// lease, so opening the store does not maintain first.
	Worker bool
	// Spawn starts a detached cairn process with these arguments.
	Spawn func(args ...string) error
	// LogHook records a hook's internal error under the data dir.
	LogHook func(error)
	// OpenEngine opens the store at dbPath and builds an engine with the given
	// configuration; the caller closes it.
	OpenEngine func(ctx context.Context, dbPath string, cfg config.Config) (*engine.Engine, error)
	// Team serves and administers the gateway, and is the client of a
	// remote one (serve_cmd.go).
	Team Team
}

// Engine opens this machine's store with the effective configuration. In
// remote mode it refuses: no command may create or change a local store
// the user does not use (the memory commands go through Memory).
func (f *Factory) Engine(ctx context.Context) (*engine.Engine, error) {
	if rc, err := f.remote(); err != nil {
		return nil, err
	} else if rc != nil {
		rc.Close()
		return nil, errLocalOnly
	}
	l, err := f.Config()
	if err != nil {
		return nil, err
	}
	return f.OpenEngine(ctx, f.Paths().DB, l.Config)
}

// BuildInfo describes the binary.
type BuildInfo struct {
	Version       string `json:"version"`
	Commit        string `json:"commit"`
	SchemaVersion int    `json:"schema_version"`
	Go            string `json:"go"`
}
