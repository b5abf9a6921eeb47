package vault

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// realTemp is t.TempDir with links resolved (macOS puts it under /var,
// a link), so that Open does not refuse it.
func realTemp(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func newVault(t *testing.T) *Vault {
	t.Helper()
	v, err := Open(filepath.Join(realTemp(t), "vault"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.Close() })
	return v
}

func write(t *testing.T, v *Vault, rel, data string) {
	t.Helper()
	if err := v.Write(context.Background(), rel, []byte(data)); err != nil {
		t.Fatal(err)
	}
}

func TestOpenCreatesLayout(t *testing.T) {
	root := filepath.Join(realTemp(t), "data", "vault")
	v, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, d := range []string{"skills", "rollout_summaries", "extensions/ad_hoc/notes", ".git"} {
		fi, err := os.Stat(filepath.Join(root, d))
		if err != nil || !fi.IsDir() {
			t.Errorf("%s: want a directory, got %v", d, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, SummaryFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("summary should not exist before the first consolidation: %v", err)
	}
	fi, err := os.Stat(root)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("root mode = %v, %v; want 0700", fi.Mode().Perm(), err)
	}
	repo, err := git.PlainOpen(root)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Storer.Reference(plumbing.HEAD)
	if err != nil || head.Target() != "refs/heads/main" {
		t.Errorf("HEAD = %v, %v; want refs/heads/main", head, err)
	}
	cfg, err := repo.Config()
	if err != nil || cfg.User.Name != "cairn" {
		t.Errorf("local user = %q, %v; want cairn", cfg.User.Name, err)
	}

	// Reopening keeps what is there.
	write(t, v, "MEMORY.md", "kept")
	v2, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer v2.Close()
	if got, err := v2.Read(context.Background(), "MEMORY.md"); err != nil || string(got) != "kept" {
		t.Errorf("after reopen: %q, %v", got, err)
	}
}

func TestOpenRefusesLinkedRoot(t *testing.T) {
	tmp := realTemp(t)
	real := filepath.Join(tmp, "real")
	if err := os.MkdirAll(filepath.Join(real, "vault"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(tmp, "linkdata")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(real, "vault"), filepath.Join(tmp, "linkvault")); err != nil {
		t.Fatal(err)
	}
	withGitFile := filepath.Join(tmp, "gitfile")
	if err := os.MkdirAll(withGitFile, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(withGitFile, ".git"), []byte("gitdir: /elsewhere\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, root string }{
		{"root is a link", filepath.Join(tmp, "linkvault")},
		{"root under a linked data dir", filepath.Join(tmp, "linkdata", "vault")},
		{"missing root under a linked data dir", filepath.Join(tmp, "linkdata", "new", "vault")},
		{".git is a file", withGitFile},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Open(tt.root)
			if err == nil {
				v.Close()
				t.Fatalf("Open(%s) succeeded; want a refusal", tt.root)
			}
			if memory.ErrorCode(err) != memory.CodeInvalid {
				t.Errorf("code = %s, want invalid: %v", memory.ErrorCode(err), err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(real, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused Open created folders through the link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(real, "vault", ".git")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused Open initialized a repository through the link: %v", err)
	}
}

func TestOpenRootVersions(t *testing.T) {
	ctx := context.Background()
	data := realTemp(t)
	v1, err := OpenRoot(data, "v1")
	if err != nil {
		t.Fatal(err)
	}
	defer v1.Close()
	v2, err := OpenRoot(data, "v2")
	if err != nil {
		t.Fatal(err)
	}
	defer v2.Close()
	if v1.Root() != filepath.Join(data, "vault") || v2.Root() != filepath.Join(data, "memories_v2") {
		t.Fatalf("roots = %s, %s", v1.Root(), v2.Root())
	}
	write(t, v1, "MEMORY.md", "v1 only")
	if _, err := v1.Baseline(ctx, "v1 pass"); err != nil {
		t.Fatal(err)
	}
	if log, err := v2.Log(ctx); err != nil || len(log) != 0 {
		t.Errorf("v2 log = %v, %v; want empty (separate repositories)", log, err)
	}
	if files, err := v2.List(ctx, ""); err != nil || len(files) != 0 {
		t.Errorf("v2 files = %v, %v; want none", files, err)
	}
	if _, err := OpenRoot(data, "v3"); memory.ErrorCode(err) != memory.CodeInvalid {
		t.Errorf("OpenRoot v3: %v; want invalid", err)
	}
}

// A broken or foreign global git config must not matter: cairn never
// reads it, and commits as itself.
func TestGlobalGitConfigIgnored(t *testing.T) {
	home := realTemp(t)
	global := "[user]\n\tname = Someone Else\n\temail = else@example.com\n[broken\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(global), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	v := newVault(t)
	write(t, v, "MEMORY.md", "x")
	hash, err := v.Baseline(context.Background(), "pass")
	if err != nil {
		t.Fatal(err)
	}
	c, err := v.repo.CommitObject(plumbing.NewHash(hash))
	if err != nil {
		t.Fatal(err)
	}
	if c.Author.Name != "cairn" || c.Committer.Email != "cairn@localhost" {
		t.Errorf("author %v, committer %v; want cairn", c.Author, c.Committer)
	}
	if got, _ := os.ReadFile(filepath.Join(home, ".gitconfig")); string(got) != global {
		t.Errorf("global config changed: %q", got)
	}
}
