package archtest

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/cairn-memory/cairn"

// core packages hold nouns and rules only.
var core = []string{"memory", "text", "redact", "rank", "capture", "temporal", "recall", "distill", "vector"}

// forbidden standard packages for the core: anything that reaches the
// disk, the network, processes or the terminal.
var forbidden = map[string]bool{
	"os": true, "os/exec": true, "os/signal": true, "net": true, "net/http": true, "database/sql": true,
	"syscall": true, "io/ioutil": true, "log": true, "log/slog": true, "plugin": true, "unsafe": true,
	"path/filepath": true, "embed": true, "runtime/cgo": true,
}

type pkg struct {
	ImportPath string
	Dir        string
	Standard   bool
	Imports    []string
	GoFiles    []string
}

func list(t *testing.T, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func isCore(path string) bool {
	for _, c := range core {
		if path == module+"/internal/"+c || strings.HasPrefix(path, module+"/internal/"+c+"/") {
			return true
		}
	}
	return false
}

func TestCoreDoesNoIO(t *testing.T) {
	present := map[string]bool{}
	for _, p := range list(t, "./internal/...") {
		present[p.ImportPath] = true
	}
	for _, c := range core {
		path := module + "/internal/" + c
		if !present[path] {
			continue // not written yet
		}
		for _, p := range list(t, "-deps", path) {
			if p.Standard {
				continue
			}
			if !isCore(p.ImportPath) {
				t.Errorf("core package %s depends on %s, which is not core", c, p.ImportPath)
			}
		}
		for _, p := range list(t, path) {
			for _, imp := range p.Imports {
				if forbidden[imp] {
					t.Errorf("core package %s imports %s", c, imp)
				}
			}
		}
	}
}

func TestEveryPackageHasOneDocComment(t *testing.T) {
	for _, p := range list(t, "./...") {
		n := 0
		var where []string
		for _, f := range p.GoFiles {
			fs := token.NewFileSet()
			af, err := parser.ParseFile(fs, filepath.Join(p.Dir, f), nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if af.Doc != nil && strings.TrimSpace(af.Doc.Text()) != "" {
				n++
				where = append(where, f)
			}
		}
		if n != 1 {
			t.Errorf("package %s has %d package doc comments %v; want exactly one", p.ImportPath, n, where)
		}
	}
}

// TestHookClientStaysSmall: cairn-hook runs at every prompt, and every
// package it links costs its start (package init, pages touched). It may
// use the standard library and the packages written for it.
func TestHookClientStaysSmall(t *testing.T) {
	allowed := map[string]bool{
		module + "/cmd/cairn-hook":    true,
		module + "/internal/paths":    true,
		module + "/internal/resident": true,
		module + "/internal/filelock": true,
	}
	// Nor a package that brings in cgo: linked against the C library, the
	// client took twice as long to start (BENCHMARKS.md, hook).
	banned := map[string]bool{"net": true, "os/user": true, "runtime/cgo": true,
		// Nor reflect, which fmt, os/exec and encoding/binary bring in:
		// without them the client's round trip took 0.4 ms less.
		"reflect": true, "fmt": true, "os/exec": true, "encoding/binary": true}
	for _, p := range list(t, "-deps", "./cmd/cairn-hook") {
		// Nor the crypto packages: any of them initializes the FIPS
		// module's hashes and ciphers at start (0.2–0.4 ms of a hook).
		if !p.Standard && !allowed[p.ImportPath] || banned[p.ImportPath] || strings.HasPrefix(p.ImportPath, "crypto/") {
			t.Errorf("cairn-hook links %s", p.ImportPath)
		}
	}
}
