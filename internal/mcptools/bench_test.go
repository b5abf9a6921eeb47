package mcptools

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkSearchCall measures what the MCP layer adds to a search: schema
// validation, JSON both ways and rendering, over an in-memory pipe.
func BenchmarkSearchCall(b *testing.B) {
	ctx := context.Background()
	srv := NewServer(newFake(), Options{ProjectDir: "/src/app"})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		cs.Close()
		ss.Wait()
	}()
	args := map[string]any{"query": "deploy target", "limit": 8}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolSearch, Arguments: args})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
