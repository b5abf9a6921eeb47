package mcptools

//lint:file-ignore SA1019 the harness offers roots, as older clients do.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// harness is a server over a fake engine, connected to a client in memory.
type harness struct {
	eng *fakeEngine
	cs  *mcp.ClientSession
	log *bytes.Buffer
}

type setup struct {
	opts    Options
	client  *mcp.ClientOptions
	session *mcp.ClientSessionOptions
	roots   []*mcp.Root
}

func start(t *testing.T, eng *fakeEngine, su setup) *harness {
	t.Helper()
	ctx := context.Background()
	logs := &bytes.Buffer{}
	if su.opts.Logger == nil {
		su.opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if su.opts.Now == nil {
		su.opts.Now = func() time.Time { return t0.Add(24 * time.Hour) }
	}
	if su.opts.ProjectDir == "" && su.opts.WorkDir == "" && su.roots == nil {
		su.opts.ProjectDir = "/src/app"
	}
	srv := NewServer(eng, su.opts)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, su.client)
	if su.roots != nil {
		c.AddRoots(su.roots...)
	}
	cs, err := c.Connect(ctx, ct, su.session)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return &harness{eng: eng, cs: cs, log: logs}
}

// call runs a tool and returns its text and whether it is an error; a
// protocol error fails the test.
func (h *harness) call(t *testing.T, name string, args map[string]any) (string, bool, *mcp.CallToolResult) {
	t.Helper()
	res, err := h.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError, res
}

// structured decodes a result's structured content.
func structured[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	var v T
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	return v
}
