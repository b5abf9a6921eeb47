package gitdir

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Cache is Resolve for a process that resolves the same few directories
// over and over (the resident process, once per hook): it keeps each
// directory's place while the files it came from are unchanged, checked
// with a stat or two where Resolve makes about twenty system calls (0.1
// ms a hook on the VMs measured). A directory outside git is resolved
// afresh each time, as is one whose path held a symlink when cached.
type Cache struct {
	mu sync.Mutex
	m  map[string]cachedPlace
}

// cacheSize bounds the directories kept; past it the cache starts over.
const cacheSize = 256

type cachedPlace struct {
	place memory.Place
	top   string // the worktree's top, holding .git
	// between are the directories from dir up to the worktree's top,
	// which held no .git when cached.
	between []string
	// stamps are what the place was read from: the .git entry, the
	// linked worktree's commondir file and the clone's config.
	stamps []stamp
}

type stamp struct {
	path string
	info os.FileInfo // nil: the file did not exist
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[string]cachedPlace{}} }

// Resolve is Resolve, answered from the cache when nothing it was read
// from has changed.
func (c *Cache) Resolve(dir string) (memory.Place, error) {
	c.mu.Lock()
	e, ok := c.m[dir]
	c.mu.Unlock()
	if ok && e.fresh() {
		return e.place, nil
	}
	// What the place is read from is stamped first: a change made while
	// it is read then shows at the next check.
	e, ok = stampsFor(dir)
	p, err := Resolve(dir)
	if err != nil {
		return p, err
	}
	if ok && e.top == p.Worktree {
		e.place = p
		c.mu.Lock()
		if len(c.m) >= cacheSize {
			clear(c.m)
		}
		c.m[dir] = e
		c.mu.Unlock()
	}
	return p, nil
}

// stampsFor records what dir's place is read from; false when it is not
// worth keeping (outside git, or dir is not the plain path it resolves to).
func stampsFor(dir string) (cachedPlace, bool) {
	if !filepath.IsAbs(dir) {
		return cachedPlace{}, false
	}
	dir = filepath.Clean(dir)
	if real, err := filepath.EvalSymlinks(dir); err != nil || real != dir {
		return cachedPlace{}, false
	}
	top, gitDir, ok := findGitDir(dir)
	if !ok {
		return cachedPlace{}, false
	}
	e := cachedPlace{top: top}
	for d := dir; d != top; d = filepath.Dir(d) {
		e.between = append(e.between, d)
	}
	common := commonDir(gitDir)
	for _, f := range []string{filepath.Join(top, ".git"), filepath.Join(gitDir, "commondir"), filepath.Join(common, "config")} {
		st, _ := os.Stat(f)
		e.stamps = append(e.stamps, stamp{path: f, info: st})
	}
	return e, true
}

// fresh reports whether nothing e was read from has changed.
func (e cachedPlace) fresh() bool {
	for _, d := range e.between {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return false
		}
	}
	for _, s := range e.stamps {
		st, err := os.Stat(s.path)
		switch {
		case s.info == nil:
			if err == nil {
				return false
			}
		case err != nil || !os.SameFile(st, s.info) || !st.ModTime().Equal(s.info.ModTime()) || st.Size() != s.info.Size():
			return false
		}
	}
	return true
}
