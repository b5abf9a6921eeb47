package mcptools

//lint:file-ignore SA1019 roots are deprecated from protocol 2026-07-28 on, and still how older clients (Claude Code) say where they run.

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestPlace(t *testing.T) {
	cases := []struct {
		name string
		su   setup
		args map[string]any
		want string
	}{
		{"cwd wins", setup{opts: Options{ProjectDir: "/proj"}}, map[string]any{"cwd": "/given/"}, "/given"},
		{"project dir", setup{opts: Options{ProjectDir: "/proj", WorkDir: "/wd"}}, nil, "/proj"},
		{"roots before workdir", setup{opts: Options{WorkDir: "/wd"}, roots: []*mcp.Root{{URI: "https://example.com/x"}, {URI: "file:///from/roots"}},
			session: &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}}, nil, "/from/roots"},
		{"workdir last", setup{opts: Options{WorkDir: "/wd"}, roots: []*mcp.Root{}}, nil, "/wd"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, newFake(), tc.su)
			args := map[string]any{"query": "deploy"}
			for k, v := range tc.args {
				args[k] = v
			}
			if text, isErr, _ := h.call(t, ToolSearch, args); isErr {
				t.Fatal(text)
			}
			if got := h.eng.searches[0].Cwd; got != tc.want {
				t.Errorf("searched %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("nowhere", func(t *testing.T) {
		h := start(t, newFake(), setup{roots: []*mcp.Root{}})
		text, isErr, _ := h.call(t, ToolSearch, map[string]any{"query": "deploy"})
		if !isErr || !strings.Contains(text, "pass cwd") {
			t.Errorf("got %v %q", isErr, text)
		}
	})
}
