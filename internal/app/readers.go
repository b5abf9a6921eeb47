package app

import (
	"context"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
	"github.com/cairn-memory/cairn/internal/transcript/claudecode"
	"github.com/cairn-memory/cairn/internal/transcript/codex"
)

// reader adapts one client importer's functions to the engine's Reader.
type reader struct {
	provider memory.Provider
	root     func() string
	discover func(ctx context.Context, root string) ([]string, error)
	sniff    func(head []byte) bool
	read     func(ctx context.Context, source string) (transcript.Result, error)
}

func (r reader) Provider() memory.Provider { return r.provider }
func (r reader) DefaultRoot() string       { return r.root() }
func (r reader) Discover(ctx context.Context, root string) ([]string, error) {
	return r.discover(ctx, root)
}
func (r reader) Sniff(head []byte) bool { return r.sniff(head) }
func (r reader) Read(ctx context.Context, source string) (transcript.Result, error) {
	return r.read(ctx, source)
}

func readers() []engine.Reader {
	return []engine.Reader{
		reader{
			provider: memory.ProviderClaudeCode,
			root:     claudecode.DefaultRoot,
			discover: func(_ context.Context, root string) ([]string, error) { return claudecode.Discover(root) },
			sniff:    claudecode.Sniff,
			read:     claudecode.ParseFile,
		},
		openCodeReader(),
		reader{
			provider: memory.ProviderCodex,
			root:     codex.DefaultRoot,
			discover: func(_ context.Context, root string) ([]string, error) { return codex.Discover(root) },
			sniff:    func(head []byte) bool { return codex.IsZstd(head) || codex.Sniff(head) },
			read:     codex.ParseFile,
		},
	}
}
