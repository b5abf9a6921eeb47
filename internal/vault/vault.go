package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Names of the files and folders of the pyramid.
const (
	SummaryFile   = "memory_summary.md"
	HandbookFile  = "MEMORY.md"
	RawFile       = "raw_memories.md"
	SkillsDir     = "skills"
	RolloutsDir   = "rollout_summaries"
	ExtensionsDir = "extensions"
	NotesDir      = "extensions/ad_hoc/notes"
)

// Root folder names under the data directory, one per memory version.
const (
	V1Dir = "vault"
	V2Dir = "memories_v2"
)

// layout lists the folders Open creates; files appear with consolidation.
var layout = []string{SkillsDir, RolloutsDir, NotesDir}

// Identity of every commit cairn makes. It is written into the
// repository's own config too, so a person running git in the vault sees
// who made the history; the user's global config is never read.
const (
	committerName  = "cairn"
	committerEmail = "cairn@localhost"
	branch         = plumbing.ReferenceName("refs/heads/main")
)

// Vault is one memory folder and its repository. Its methods are safe for
// concurrent use within one process; across processes the caller's
// consolidation lease serializes Baseline and Reset.
type Vault struct {
	root string   // absolute, free of symbolic links
	dir  *os.Root // every file operation goes through it
	now  func() time.Time

	mu   sync.Mutex // guards repo; held for the whole of a git operation
	repo *git.Repository

	sumMu sync.Mutex // guards sum; separate so Summary never waits on git
	sum   summaryCache
}

// OpenRoot opens the vault for a memory version under dataDir: "v1" (or
// "") is <dataDir>/vault, "v2" is <dataDir>/memories_v2. The two are
// separate folders with separate histories, so switching versions never
// rewrites the other's files; a reset must reset both.
func OpenRoot(dataDir, version string) (*Vault, error) {
	switch version {
	case "", "v1":
		return Open(filepath.Join(dataDir, V1Dir))
	case "v2":
		return Open(filepath.Join(dataDir, V2Dir))
	}
	return nil, memory.Errorf(memory.CodeInvalid, "unknown memory version %q; use v1 or v2", version)
}

// Open opens the vault at root, creating the folder (mode 0700), the
// layout and the git repository when missing. It refuses a root that is a
// symbolic link or lies under one, and a .git that is not a plain
// directory (a .git file or link would send commits elsewhere).
func Open(root string) (*Vault, error) {
	const op = "vault open"
	if root == "" {
		return nil, memory.Errorf(memory.CodeInvalid, "vault root is empty")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, op, err)
	}
	if err := checkRoot(abs); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, op, err)
	}
	// Again, now that it exists: a link could have appeared meanwhile.
	if err := checkRoot(abs); err != nil {
		return nil, err
	}
	dir, err := os.OpenRoot(abs)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, op, err)
	}
	v := &Vault{root: abs, dir: dir, now: time.Now}
	if err := v.prepare(); err != nil {
		_ = dir.Close()
		return nil, err
	}
	return v, nil
}

// Root returns the vault's absolute path.
func (v *Vault) Root() string { return v.root }

// Close releases the directory handle. The Vault must not be used after.
func (v *Vault) Close() error { return v.dir.Close() }

// checkRoot refuses a root that is, or lies under, a symbolic link. The
// nearest existing ancestor is resolved and compared with itself: any
// difference means a link somewhere on the way.
func checkRoot(abs string) error {
	p := filepath.Clean(abs)
	for {
		fi, err := os.Lstat(p)
		if err == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				return memory.Errorf(memory.CodeInvalid, "vault root %s: %s is a symbolic link; point cairn at the real folder", abs, p)
			}
			if p == abs && !fi.IsDir() {
				return memory.Errorf(memory.CodeInvalid, "vault root %s is not a directory", abs)
			}
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				return memory.Wrap(memory.CodeInternal, "vault resolve "+p, err)
			}
			if real != p {
				return memory.Errorf(memory.CodeInvalid, "vault root %s lies under a symbolic link (%s resolves to %s); point cairn at the real folder", abs, p, real)
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return memory.Wrap(memory.CodeInternal, "vault check "+p, err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}

// prepare creates the layout and opens or initializes the repository.
func (v *Vault) prepare() error {
	const op = "vault open"
	for _, d := range layout {
		if err := v.checkLinks(d); err != nil {
			return err
		}
		if err := v.dir.MkdirAll(d, 0o700); err != nil {
			return memory.Wrap(memory.CodeInternal, op, err)
		}
	}
	fi, err := v.dir.Lstat(".git")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return v.initRepo()
	case err != nil:
		return memory.Wrap(memory.CodeInternal, op, err)
	case !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0:
		return memory.Errorf(memory.CodeInvalid, "vault %s: .git is not a directory; move it away and reopen", v.root)
	}
	repo, err := git.PlainOpenWithOptions(v.root, &git.PlainOpenOptions{})
	if err != nil {
		return memory.Wrap(memory.CodeInternal, op, err)
	}
	v.repo = repo
	return nil
}

// initRepo creates the repository with main as its branch and cairn as
// its local identity. Another process may win the race to create it; then
// its repository is opened instead.
func (v *Vault) initRepo() error {
	const op = "vault init"
	repo, err := git.PlainInitWithOptions(v.root, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: branch},
	})
	if errors.Is(err, git.ErrRepositoryAlreadyExists) {
		repo, err = git.PlainOpen(v.root)
	}
	if err != nil {
		return memory.Wrap(memory.CodeInternal, op, err)
	}
	cfg, err := repo.Config()
	if err != nil {
		return memory.Wrap(memory.CodeInternal, op, err)
	}
	if cfg.User.Name == "" {
		cfg.User.Name = committerName
		cfg.User.Email = committerEmail
		if err := repo.SetConfig(cfg); err != nil {
			return memory.Wrap(memory.CodeInternal, op, err)
		}
	}
	v.repo = repo
	return nil
}

// errPath wraps an I/O error for rel, mapping a missing file to not_found.
func errPath(op, rel string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &memory.Error{Code: memory.CodeNotFound, Message: fmt.Sprintf("%s does not exist in the vault", rel), Op: op, Err: err}
	}
	return memory.Wrap(memory.CodeInternal, op+" "+rel, err)
}
