package vault

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// hostile builds a vault next to a folder of secrets, with links planted
// inside the vault that point at it, and returns the tools, the outside
// folder and the log of refusals.
func hostile(t *testing.T) (*Tools, string, *[]string) {
	t.Helper()
	v := newVault(t)
	outside := filepath.Join(filepath.Dir(v.Root()), "outside")
	if err := os.MkdirAll(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("top secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"dirlink":        outside,
		"filelink.md":    filepath.Join(outside, "secret.md"),
		"skills/uplink":  "../../outside", // relative, one folder down
		"innerlink.md":   "MEMORY.md",     // stays inside; still refused
		"skills/newfile": filepath.Join(outside, "created.md"),
	}
	write(t, v, "MEMORY.md", "handbook")
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(v.Root(), filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	var log []string
	return v.Tools(func(msg string) { log = append(log, msg) }), outside, &log
}

// tree lists every path under dir, to prove nothing appeared.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == "vault" && d.IsDir() {
			return filepath.SkipDir
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestToolsRefuseEscapes(t *testing.T) {
	ctx := context.Background()
	paths := []string{
		"../x", "../outside/secret.md", "/etc/x", "/etc/passwd", "a/../../x", "..", "../../../../../../tmp/x",
		"..\\x", "a\\..\\..\\x", "C:\\x", "C:/x", "\\\\server\\share\\x",
		"a\x00b", "MEMORY.md\x00../../x",
		strings.Repeat("a/", 600) + "x", strings.Repeat("n", 300) + ".md",
		".git/config", ".git/hooks/pre-commit", ".GIT/HEAD", "skills/.git/x", ".git./config",
		"dirlink/x", "dirlink/secret.md", "filelink.md", "skills/uplink/secret.md", "skills/uplink/x",
		"innerlink.md", "skills/newfile",
	}
	tools, outside, log := hostile(t)
	parent := filepath.Dir(outside)
	before := tree(t, parent)
	_, etcErr := os.Lstat("/etc/x")

	ops := []struct {
		name string
		call func(p string) (string, error)
	}{
		{"write", func(p string) (string, error) { return tools.Write(ctx, p, "pwned") }},
		{"read", func(p string) (string, error) { return tools.Read(ctx, p) }},
		{"list", func(p string) (string, error) { return tools.List(ctx, p) }},
	}
	for _, op := range ops {
		for _, p := range paths {
			if op.name == "list" && (p == "filelink.md" || p == "innerlink.md" || p == "skills/newfile") {
				continue // links to files: List refuses them too, covered below
			}
			*log = nil
			out, err := op.call(p)
			if err == nil || !errors.Is(err, ErrUnsafePath) || memory.ErrorCode(err) != memory.CodeInvalid {
				t.Errorf("%s(%q) = %q, %v; want a refusal", op.name, p, out, err)
				continue
			}
			if out != "" || strings.Contains(err.Error(), "top secret") {
				t.Errorf("%s(%q) leaked %q / %v", op.name, p, out, err)
			}
			if strings.Contains(err.Error(), filepath.Dir(tools.v.Root())) {
				t.Errorf("%s(%q): error reveals the host path: %v", op.name, p, err)
			}
			if len(*log) != 1 || !strings.Contains((*log)[0], "refused model "+op.name) {
				t.Errorf("%s(%q): log = %q; want one refusal line", op.name, p, *log)
			}
		}
	}
	if _, err := tools.List(ctx, "filelink.md"); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("list through a file link: %v", err)
	}

	if after := tree(t, parent); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("files outside the vault changed:\nbefore %v\nafter  %v", before, after)
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "secret.md")); string(got) != "top secret" {
		t.Errorf("outside file changed: %q", got)
	}
	if _, err := os.Lstat("/etc/x"); etcErr != nil && err == nil {
		t.Errorf("/etc/x was created")
	}
	if got, _ := tools.Read(ctx, "MEMORY.md"); got != "handbook" {
		t.Errorf("MEMORY.md = %q; a refused write must not land inside either", got)
	}
}

func TestToolsLimitsAndErrors(t *testing.T) {
	ctx := context.Background()
	tools, _, log := hostile(t)
	tools.MaxRead, tools.MaxWrite = 4, 8
	tests := []struct {
		name string
		call func() (string, error)
		code memory.Code
	}{
		{"write too big", func() (string, error) { return tools.Write(ctx, "a.md", "123456789") }, memory.CodeInvalid},
		{"write NUL content", func() (string, error) { return tools.Write(ctx, "a.md", "a\x00b") }, memory.CodeInvalid},
		{"read too big", func() (string, error) { return tools.Read(ctx, "MEMORY.md") }, memory.CodeInvalid},
		{"read missing", func() (string, error) { return tools.Read(ctx, "missing.md") }, memory.CodeNotFound},
		{"read a folder", func() (string, error) { return tools.Read(ctx, "skills") }, memory.CodeInvalid},
		{"list missing", func() (string, error) { return tools.List(ctx, "nope") }, memory.CodeNotFound},
		{"empty search", func() (string, error) { return tools.Search(ctx, "") }, memory.CodeInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.call()
			if memory.ErrorCode(err) != tt.code {
				t.Errorf("err = %v; want code %s", err, tt.code)
			}
			if err != nil && strings.Contains(err.Error(), tools.v.Root()) {
				t.Errorf("error reveals the host path: %v", err)
			}
		})
	}
	if len(*log) != 0 {
		t.Errorf("errors that are not refusals were logged: %q", *log)
	}
	if out, err := tools.Write(ctx, "skills/new/a.md", "ok"); err != nil || out != "wrote 2 bytes to skills/new/a.md" {
		t.Errorf("a fair write: %q, %v", out, err)
	}
}

// TestToolsOutput pins what a model sees from list and search.
func TestToolsOutput(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	tools := v.Tools(nil)
	for _, w := range []struct{ path, content string }{
		{"MEMORY.md", "# Handbook\n- run go test before commit (rollout_summaries/2025-01-02-tests.md)\n"},
		{"memory_summary.md", "## User preferences\n- table-driven tests\n"},
		{"skills/go-tests/SKILL.md", "Write table-driven Go tests.\nRun go test ./...\n"},
		{"rollout_summaries/2025-01-02-tests.md", "The user asked to run go test before each commit.\n"},
		{"extensions/ad_hoc/notes/01J.md", "remember: tests before commit\n"},
	} {
		if _, err := tools.Write(ctx, w.path, w.content); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	step := func(title string, out string, err error) {
		b.WriteString("== " + title + "\n")
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
			return
		}
		b.WriteString(out)
	}
	out, err := tools.List(ctx, "")
	step("list", out, err)
	out, err = tools.List(ctx, "skills")
	step("list skills", out, err)
	out, err = tools.List(ctx, "extensions/ad_hoc/notes/..")
	step("list with ..", out, err)
	out, err = tools.Search(ctx, "GO TEST")
	step("search GO TEST", out, err)
	out, err = tools.Search(ctx, "nothing like this")
	step("search nothing", out, err)
	tools.MaxList, tools.MaxMatches = 2, 2
	out, err = tools.List(ctx, "")
	step("list capped at 2", out, err)
	out, err = tools.Search(ctx, "test")
	step("search capped at 2", out, err)
	golden(t, "tools.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update if intended):\n%s", path, got)
	}
}
