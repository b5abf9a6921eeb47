package gitdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func tempDir(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func resolve(t *testing.T, dir string) memory.Place {
	t.Helper()
	p, err := Resolve(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolveRepositoryLayouts(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not installed: the layouts are built with real git")
	}
	root := tempDir(t)
	main := filepath.Join(root, "clone")
	git(t, root, "init", "-q", "-b", "main", main)
	git(t, main, "remote", "add", "origin", "git@github.com:Acme/Widget.git")
	git(t, main, "commit", "-q", "--allow-empty", "-m", "init")
	sub := filepath.Join(main, "pkg", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(root, "wt-feature")
	git(t, main, "worktree", "add", "-q", "-b", "feature", wt)

	second := filepath.Join(root, "second-clone")
	git(t, root, "init", "-q", "-b", "main", second)
	git(t, second, "remote", "add", "origin", "https://github.com/acme/widget")

	third := filepath.Join(root, "third")
	git(t, root, "init", "-q", third)
	git(t, third, "remote", "add", "upstream", "ssh://git@github.com:22/acme/widget.git")

	noRemote := filepath.Join(root, "lonely")
	git(t, root, "init", "-q", noRemote)

	plain := filepath.Join(root, "not-git")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link-to-deep")
	if err := os.Symlink(sub, link); err != nil {
		t.Fatal(err)
	}

	mainGit := filepath.Join(main, ".git")
	cases := []struct {
		name string
		dir  string
		want memory.Place
	}{
		{"top level", main, memory.Place{Worktree: main, Project: mainGit, Repo: "github.com/acme/widget"}},
		{"subdirectory", sub, memory.Place{Worktree: main, Project: mainGit, Repo: "github.com/acme/widget"}},
		{"symlink into the checkout", link, memory.Place{Worktree: main, Project: mainGit, Repo: "github.com/acme/widget"}},
		{"linked worktree shares the project", wt, memory.Place{Worktree: wt, Project: mainGit, Repo: "github.com/acme/widget"}},
		{"second clone shares only the repo", second, memory.Place{Worktree: second, Project: filepath.Join(second, ".git"), Repo: "github.com/acme/widget"}},
		{"single non-origin remote", third, memory.Place{Worktree: third, Project: filepath.Join(third, ".git"), Repo: "github.com/acme/widget"}},
		{"no remote", noRemote, memory.Place{Worktree: noRemote, Project: filepath.Join(noRemote, ".git")}},
		{"outside git", plain, memory.Place{Worktree: plain, Project: plain}},
		{"gone directory", filepath.Join(root, "deleted", "x"), memory.Place{Worktree: filepath.Join(root, "deleted", "x"), Project: filepath.Join(root, "deleted", "x")}},
	}
	cache := NewCache()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := resolve(t, c.dir); got != c.want {
				t.Fatalf("Resolve(%s)\n got  %+v\n want %+v", c.dir, got, c.want)
			}
			// Filled, then answered from the cache.
			for range 2 {
				if got, err := cache.Resolve(c.dir); err != nil || got != c.want {
					t.Fatalf("Cache.Resolve(%s)\n got  %+v, %v\n want %+v", c.dir, got, err, c.want)
				}
			}
		})
	}
	// Only plain paths inside git are kept.
	for _, d := range []string{main, sub, wt, second, third, noRemote} {
		if _, ok := cache.m[d]; !ok {
			t.Errorf("%s was not kept", d)
		}
	}
	for _, d := range []string{plain, link} {
		if _, ok := cache.m[d]; ok {
			t.Errorf("%s was kept", d)
		}
	}
}

// TestCacheSeesChanges: what a place is read from changing (the remote, a
// repository created in between, the checkout removed) is seen at once.
func TestCacheSeesChanges(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not installed")
	}
	root := tempDir(t)
	main := filepath.Join(root, "clone")
	git(t, root, "init", "-q", "-b", "main", main)
	git(t, main, "remote", "add", "origin", "https://github.com/acme/widget")
	sub := filepath.Join(main, "svc", "api")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cache := NewCache()
	check := func(dir string, want memory.Place) {
		t.Helper()
		got, err := cache.Resolve(dir)
		if err != nil || got != want {
			t.Fatalf("Cache.Resolve(%s)\n got  %+v, %v\n want %+v", dir, got, err, want)
		}
		if fresh := resolve(t, dir); fresh != want {
			t.Fatalf("Resolve(%s) itself gives %+v", dir, fresh)
		}
	}
	mainGit := filepath.Join(main, ".git")
	check(sub, memory.Place{Worktree: main, Project: mainGit, Repo: "github.com/acme/widget"})
	git(t, main, "remote", "set-url", "origin", "https://github.com/acme/gadget")
	check(sub, memory.Place{Worktree: main, Project: mainGit, Repo: "github.com/acme/gadget"})
	nested := filepath.Join(main, "svc")
	git(t, nested, "init", "-q", "-b", "main")
	check(sub, memory.Place{Worktree: nested, Project: filepath.Join(nested, ".git")})
	if err := os.RemoveAll(filepath.Join(nested, ".git")); err != nil {
		t.Fatal(err)
	}
	check(sub, memory.Place{Worktree: main, Project: mainGit, Repo: "github.com/acme/gadget"})
}

func TestResolveEmpty(t *testing.T) {
	if _, err := Resolve(""); memory.ErrorCode(err) != memory.CodeInvalid {
		t.Fatalf("want invalid, got %v", err)
	}
}
