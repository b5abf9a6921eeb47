//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/setup"
)

// pin is one line of testdata/clients.txt.
type pin struct {
	dir, pkg, version, bin string
}

func readPins(t *testing.T) []pin {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "clients.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []pin
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) < 3 {
			t.Fatalf("clients.txt: %q: want dir, package, version and maybe a bin", sc.Text())
		}
		p := pin{dir: f[0], pkg: f[1], version: f[2]}
		if len(f) > 3 {
			p.bin = f[3]
		}
		out = append(out, p)
	}
	return out
}

// cacheDir is where the agents are installed: $CAIRN_E2E_CACHE, else
// ~/.cache/cairn-e2e (the same rule as scripts/e2e).
func cacheDir(t *testing.T) string {
	if c := os.Getenv("CAIRN_E2E_CACHE"); c != "" {
		return c
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(home, ".cache", "cairn-e2e")
}

func (p pin) root(cache string) string {
	return filepath.Join(cache, p.dir+"@"+p.version, "node_modules")
}

// installed reports whether the cache holds the pinned version.
func (p pin) installed(cache string) bool {
	root := p.root(cache)
	if p.bin == "" {
		b, err := os.ReadFile(filepath.Join(root, p.pkg, "package.json"))
		var v struct{ Version string }
		return err == nil && json.Unmarshal(b, &v) == nil && v.Version == p.version
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, filepath.Join(root, ".bin", p.bin), "--version").Output()
	return err == nil && strings.Contains(string(out), p.version)
}

// ensure installs a pin into the cache unless it is there, the way
// scripts/e2e does: into a side directory, renamed when complete. The
// suite is asked for by name (-tags e2e), so a failed install fails it;
// scripts/e2e is what turns "cannot install" into a skip.
func ensure(t *testing.T, cache string, p pin) {
	t.Helper()
	if p.installed(cache) {
		return
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatalf("%s@%s is not in %s and npm is not installed: run scripts/e2e", p.pkg, p.version, cache)
	}
	dir := filepath.Dir(p.root(cache))
	partial := fmt.Sprintf("%s.partial.%d", dir, os.Getpid())
	_ = os.RemoveAll(partial)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	t.Logf("installing %s@%s into %s", p.pkg, p.version, dir)
	out, err := exec.CommandContext(ctx, "npm", "install", "--prefix", partial, "--save-exact", "--no-audit", "--no-fund",
		"--loglevel=error", p.pkg+"@"+p.version).CombinedOutput()
	if err != nil {
		_ = os.RemoveAll(partial)
		t.Fatalf("npm install %s@%s: %v\n%s", p.pkg, p.version, err, out)
	}
	_ = os.RemoveAll(dir)
	if err := os.Rename(partial, dir); err != nil && !p.installed(cache) {
		t.Fatal(err)
	}
	if !p.installed(cache) {
		t.Fatalf("%s@%s installed into %s but does not answer as that version", p.pkg, p.version, dir)
	}
}

// buildCairn builds the binary under test, with the test's own
// environment (its Go caches), into dir. CAIRN_E2E_CAIRN=PATH tests that
// binary instead (a release build, or one built from a clean checkout
// while the working tree is mid-edit); it is copied into dir, since the
// suite tells cairn's processes apart by their executable's path.
func buildCairn(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "cairn")
	if given := os.Getenv("CAIRN_E2E_CAIRN"); given != "" {
		b, err := os.ReadFile(given)
		if err != nil {
			t.Fatalf("CAIRN_E2E_CAIRN: %v", err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		// Its hook client comes along when it has one.
		if hc, err := os.ReadFile(filepath.Join(filepath.Dir(given), "cairn-hook")); err == nil {
			if err := os.WriteFile(filepath.Join(dir, "cairn-hook"), hc, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("testing %s (CAIRN_E2E_CAIRN), not a build of this tree", given)
		return bin
	}
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	// Both programs, as installed: setup has the clients run cairn-hook,
	// which hands each hook to the resident process.
	cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "./cmd/cairn", "./cmd/cairn-hook")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// result is what one command did.
type result struct {
	stdout, stderr string
	err            error
	took           time.Duration
}

func (r result) String() string {
	return fmt.Sprintf("err=%v took=%s\nstdout:\n%s\nstderr:\n%s", r.err, r.took.Round(time.Millisecond), clip(r.stdout, 4000), clip(r.stderr, 4000))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes more)", len(s)-n)
}

// runTimeout bounds one agent run: a turn takes seconds, a loaded
// machine makes it tens of seconds.
const runTimeout = 3 * time.Minute

// run runs a command in dir with env and stdin from /dev/null.
func run(dir string, env []string, name string, args ...string) result {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Agents leave helpers (MCP servers, plugin children) holding the
	// pipes for a moment after they exit.
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	return result{stdout: stdout.String(), stderr: stderr.String(), err: err, took: time.Since(start)}
}

// copyTree copies a directory (files, directories, symlinks).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, info.Mode().Perm())
	})
}

// running lists the live processes whose executable is bin: cairn's
// detached imports and maintenance, and MCP servers not yet stopped.
func running(bin string) ([]string, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || exe != bin && exe != filepath.Join(filepath.Dir(bin), "cairn-hook") {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		// The resident process stays by design; a hook it is answering
		// shows as the cairn-hook waiting for it.
		if strings.HasSuffix(string(cmdline), "daemon\x00run\x00") {
			continue
		}
		out = append(out, e.Name()+": "+strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " "))
	}
	return out, nil
}

// errSettle is returned when cairn processes outlive the wait.
var errSettle = errors.New("cairn processes still running")

// settle waits until no process runs bin or its cairn-hook, the resident
// process aside: the detached work the agents' hooks started (imports,
// maintenance) is then done, and what the store holds is final. It polls; it never sleeps a fixed time.
func settle(bin string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		ps, err := running(bin)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w after %s: %s", errSettle, limit, strings.Join(ps, "; "))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hookCommand is the command setup installed for a client's hook:
// cairn-hook (after setup.HookClientEnv) when it sits beside cairn, else
// `cairn hook`.
func hookCommand(cairn, client, event string) string {
	hc := filepath.Join(filepath.Dir(cairn), "cairn-hook")
	if _, err := os.Stat(hc); err == nil {
		return setup.HookClientEnv + " " + hc + " " + client + " " + event
	}
	return cairn + " hook " + client + " " + event
}
