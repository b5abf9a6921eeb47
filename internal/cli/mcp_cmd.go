package cli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"

	"github.com/cairn-memory/cairn/internal/mcptools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

func newMCPCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve memory to an agent as MCP tools on stdin/stdout",
		Long: `mcp runs cairn's MCP server on stdin and stdout until the client closes
stdin: memory_search, memory_read, memory_list, memory_timeline,
memory_remember and memory_forget. stdout carries only the protocol; logs go
to stderr. Calls that name no directory are about $CLAUDE_PROJECT_DIR, else
the client's first root, else the directory the server was started in.`,
		Example: `  claude mcp add cairn -- cairn mcp
  codex mcp add cairn -- cairn mcp`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), f)
		},
	}
}

func runMCP(ctx context.Context, f *Factory) error {
	var eng mcptools.Engine
	// Remote mode: the tools read and write the gateway's memory.
	if rc, err := f.remote(); err != nil {
		return err
	} else if rc != nil {
		defer rc.Close()
		eng = rc
	} else {
		local, err := f.Engine(ctx)
		if err != nil {
			return err
		}
		defer local.Close()
		eng = local
	}
	wd, _ := os.Getwd()
	log := slog.New(slog.NewTextHandler(f.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := mcptools.NewServer(eng, mcptools.Options{
		Version:    f.Version.Version,
		ProjectDir: f.Getenv("CLAUDE_PROJECT_DIR"),
		WorkDir:    wd,
		Logger:     log,
	})
	t := &mcp.IOTransport{Reader: io.NopCloser(f.IO.In), Writer: nopWriteCloser{f.IO.Out}}
	err := srv.Run(ctx, t)
	// A client that closes stdin, or a signal, ends the session normally.
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// nopWriteCloser leaves stdout open when the session closes: the process
// owns it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
