package mcptools

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Engine is what the tools use of cairn's engine. It lists only those
// methods, so a client of a remote gateway can stand in for it.
type Engine interface {
	Place(dir string) (memory.Place, error)
	Search(ctx context.Context, req engine.SearchRequest) (engine.SearchResult, error)
	Facts(ctx context.Context, q engine.FactQuery) (engine.FactsView, error)
	Timeline(ctx context.Context, q engine.FactQuery, clock temporal.Clock, since, until time.Time) ([]memory.Statement, error)
	Notes(ctx context.Context, all, episodes bool) (engine.NotesView, error)
	// Statement, Episode and Part read one row by id; Part returns the
	// part with its session and turn, the fields a search match carries.
	Statement(ctx context.Context, id int64) (memory.Statement, error)
	Episode(ctx context.Context, id int64) (memory.Episode, error)
	Part(ctx context.Context, id int64) (memory.Match, error)
	Forget(ctx context.Context, r engine.Ref) (any, error)
	// RememberLater keeps a write until the running turn ends: applied
	// when the turn completes, dropped if it is refused.
	RememberLater(ctx context.Context, w engine.Write) (pendingID int64, err error)
	VaultReader
}

// Options configures a server; zero fields take defaults.
type Options struct {
	// Version is reported to clients as the server's version.
	Version string
	// ProjectDir is the directory calls that name none are about, ahead of
	// the client's roots: Claude Code's CLAUDE_PROJECT_DIR.
	ProjectDir string
	// WorkDir is the last resort after the call, ProjectDir and the
	// client's roots: the working directory of a stdio server. A shared
	// HTTP server leaves it empty, so a call must say where it is.
	WorkDir string
	// Logger receives internal errors in full; nil discards them.
	Logger *slog.Logger
	// Now reads the clock, for times given relative to now ("-7d").
	Now func() time.Time
	// RootsTimeout bounds the wait for a client's roots/list answer.
	RootsTimeout time.Duration
}

// Tool names, as clients list them (they prefix them, e.g.
// mcp__cairn__memory_search).
const (
	ToolSearch   = "memory_search"
	ToolRead     = "memory_read"
	ToolList     = "memory_list"
	ToolRemember = "memory_remember"
	ToolTimeline = "memory_timeline"
	ToolForget   = "memory_forget"
)

// server holds what every tool handler needs.
type server struct {
	eng  Engine
	opts Options
	log  *slog.Logger
}

// NewServer builds the MCP server with cairn's tools and instructions.
func NewServer(eng Engine, opts Options) *mcp.Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RootsTimeout <= 0 {
		opts.RootsTimeout = 3 * time.Second
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &server{eng: eng, opts: opts, log: opts.Logger}
	srv := mcp.NewServer(&mcp.Implementation{Name: "cairn", Title: "cairn memory", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Logger:       opts.Logger,
		// No logging capability: the server logs to its own stderr only.
		Capabilities: &mcp.ServerCapabilities{},
	})
	srv.AddReceivingMiddleware(s.guard)
	s.register(srv)
	return srv
}

// register adds every tool.
func (s *server) register(srv *mcp.Server) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	mcp.AddTool(srv, &mcp.Tool{Name: ToolSearch, Title: "Search memory", Description: searchDescription,
		InputSchema: searchSchema(), Annotations: readOnly}, handle(s, ToolSearch, s.search))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolRead, Title: "Read a memory", Description: readDescription,
		InputSchema: readSchema(), Annotations: readOnly}, handle(s, ToolRead, s.read))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolList, Title: "List memory", Description: listDescription,
		InputSchema: listSchema(), Annotations: readOnly}, handle(s, ToolList, s.list))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolTimeline, Title: "Memory timeline", Description: timelineDescription,
		InputSchema: timelineSchema(), Annotations: readOnly}, handle(s, ToolTimeline, s.timeline))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolRemember, Title: "Remember", Description: rememberDescription,
		InputSchema: rememberSchema(),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}}, handle(s, ToolRemember, s.remember))
	// Forgetting deactivates and can be undone, so it is not destructive;
	// doing it twice changes nothing more.
	mcp.AddTool(srv, &mcp.Tool{Name: ToolForget, Title: "Forget", Description: forgetDescription,
		InputSchema: forgetSchema(),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}}, handle(s, ToolForget, s.forget))
}

// handle adapts a tool function: its text becomes the result's content
// (what a model reads), its value the structured content, and its error
// an isError result worded for the agent.
func handle[In, Out any](s *server, name string, fn func(context.Context, *mcp.CallToolRequest, In) (string, Out, error)) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		text, out, err := fn(ctx, req, in)
		if err != nil {
			var zero Out
			return nil, zero, s.toolError(ctx, name, err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	}
}

func ptr[T any](v T) *T { return &v }
