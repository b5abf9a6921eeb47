package setup

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGoldenConfigs renders what setup writes into the realistic
// fixtures: a person reviewing a change to these files sees exactly what
// lands in a user's configuration.
func TestGoldenConfigs(t *testing.T) {
	e := newTestEnv(t)
	e.vars["CODEX_HOME"] = filepath.Join(e.home, ".codex")
	files := map[string]string{
		"claude-settings.json": e.fixture("claude-settings.json", filepath.Join(e.home, ".claude", "settings.json")),
		"claude.json":          e.fixture("claude.json", filepath.Join(e.home, ".claude.json")),
		"codex-config.toml":    e.fixture("codex-config.toml", filepath.Join(e.home, ".codex", "config.toml")),
		"codex-hooks.json":     e.fixture("codex-hooks.json", filepath.Join(e.home, ".codex", "hooks.json")),
		"opencode.json":        e.fixture("opencode.json", filepath.Join(e.home, ".config", "opencode", "opencode.json")),
		"cairn.js":             filepath.Join(e.home, ".config", "opencode", "plugins", "cairn.js"),
	}
	for _, c := range Clients {
		run(t, e.opts(c, ScopeUser))
	}
	for name, path := range files {
		got := read(t, path)
		golden := filepath.Join("testdata", "golden", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s (run go test -update and review the diff):\n%s", name, golden, firstDiff(string(want), got))
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return ""
}
