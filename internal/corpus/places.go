package corpus

import (
	"fmt"
	"os"
	"path/filepath"
)

// Checkout is one working directory of a search corpus: a git worktree
// and the clone it belongs to.
type Checkout struct {
	// Dir is the worktree's top level, the cwd its sessions record.
	Dir string `json:"dir"`
	// Clone is the main checkout of the clone Dir belongs to (Dir itself
	// for a main checkout).
	Clone string `json:"clone"`
	// Branch is what the worktree has checked out.
	Branch string `json:"branch"`
}

// MakeCheckouts lays out worktrees git checkouts of clones clones under
// root and returns them, the main checkouts first. Checkout i belongs to
// clone i mod clones; the first of each clone is its main checkout and the
// rest are linked worktrees. Only as much of git's on-disk layout is
// written as place resolution reads (a .git directory with an origin URL,
// a linked worktree's .git file and commondir), so no git binary is
// needed. Existing files are rewritten with the same bytes: calling it
// again for the same root is harmless.
func MakeCheckouts(root string, worktrees, clones int) ([]Checkout, error) {
	if clones < 1 || worktrees < clones || clones > len(projects) || worktrees > clones*(1+len(branchWords)) {
		return nil, fmt.Errorf("make checkouts: %d worktrees of %d clones is not a layout this package can name", worktrees, clones)
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("make checkouts: %w", err)
	}
	out := make([]Checkout, 0, worktrees)
	for i := range worktrees {
		name := projects[i%clones]
		clone := filepath.Join(root, name)
		gitDir := filepath.Join(clone, ".git")
		c := Checkout{Dir: clone, Clone: clone, Branch: "main"}
		files := map[string]string{}
		if i < clones {
			files[filepath.Join(gitDir, "HEAD")] = "ref: refs/heads/main\n"
			files[filepath.Join(gitDir, "config")] = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n" +
				"[remote \"origin\"]\n\turl = git@github.com:acme/" + name + ".git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
		} else {
			c.Branch = branchWords[i/clones-1]
			wt := name + "-" + c.Branch
			c.Dir = filepath.Join(root, wt)
			meta := filepath.Join(gitDir, "worktrees", wt)
			files[filepath.Join(c.Dir, ".git")] = "gitdir: " + meta + "\n"
			files[filepath.Join(meta, "commondir")] = "../..\n"
			files[filepath.Join(meta, "HEAD")] = "ref: refs/heads/" + c.Branch + "\n"
			files[filepath.Join(meta, "gitdir")] = filepath.Join(c.Dir, ".git") + "\n"
		}
		for path, body := range files {
			if err := writeSmall(path, body); err != nil {
				return nil, fmt.Errorf("make checkouts: %w", err)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

func writeSmall(path, body string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if b, err := os.ReadFile(path); err == nil && string(b) == body {
		return nil
	}
	return os.WriteFile(path, []byte(body), 0o644)
}
