package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStatus(t *testing.T) {
	e := newTestEnv(t)
	e.vars["CODEX_HOME"] = filepath.Join(e.root, "codex-home")
	if got := Status(e.opts("", "")); len(got) != 0 {
		t.Fatalf("nothing is set up yet: %+v", got)
	}
	bin := e.write("bin/cairn", "#!/bin/sh\n")
	for _, c := range Clients {
		o := e.opts(c, ScopeUser)
		o.Cairn = bin
		run(t, o)
	}
	o := e.opts(ClaudeCode, ScopeProject)
	o.Cairn = bin
	run(t, o)

	got := Status(e.opts("", ""))
	if len(got) != 3 {
		t.Fatalf("status %+v", got)
	}
	for _, s := range got {
		if !s.Hooks || !s.MCP {
			t.Errorf("%s: %+v", s.Client, s)
		}
		if strings.Contains(s.Detail, "does not exist") {
			t.Errorf("%s: %s", s.Client, s.Detail)
		}
	}
	mustEqual(t, "claude detail", got[0].Detail, "user: hooks+mcp; project: hooks+mcp")

	os.Remove(bin)
	for _, s := range Status(e.opts("", "")) {
		mustContain(t, s.Client, s.Detail, bin+" does not exist")
	}

	// A file that does not parse is reported, not fatal.
	e.write(filepath.Join(e.root, "codex-home", "config.toml"), "[broken\n")
	for _, s := range Status(e.opts("", "")) {
		if s.Client == Codex {
			mustContain(t, "codex", s.Detail, "config.toml line 1")
		}
	}
}
