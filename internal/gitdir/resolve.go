package gitdir

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Resolve maps dir onto the ladder. A directory outside git is its own
// worktree and project, with no repo. A directory that no longer exists
// (an old transcript's cwd) resolves to its cleaned path the same way, so
// imports of old sessions still get a stable place.
func Resolve(dir string) (memory.Place, error) {
	if dir == "" {
		return memory.Place{}, memory.Errorf(memory.CodeInvalid, "no directory given to resolve a place from")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return memory.Place{}, memory.Wrap(memory.CodeInvalid, "resolve place", err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	} else {
		return memory.Place{Worktree: abs, Project: abs}, nil
	}
	top, gitDir, ok := findGitDir(abs)
	if !ok {
		return memory.Place{Worktree: abs, Project: abs}, nil
	}
	common := commonDir(gitDir)
	return memory.Place{
		Worktree: realPath(top),
		Project:  realPath(common),
		Repo:     memory.NormalizeRepoURL(originURL(common)),
	}, nil
}

// findGitDir walks up from dir to the first directory holding .git, which
// is either the git dir itself or a file pointing at it (linked worktrees,
// submodules).
func findGitDir(dir string) (top, gitDir string, ok bool) {
	for d := dir; ; {
		p := filepath.Join(d, ".git")
		fi, err := os.Stat(p)
		if err == nil {
			if fi.IsDir() {
				return d, p, true
			}
			if g, ok := readGitFile(p); ok {
				return d, g, true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

// readGitFile reads a "gitdir: <path>" file; relative paths are relative to
// the file's directory.
func readGitFile(p string) (string, bool) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", false
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	s, found := strings.CutPrefix(strings.TrimSpace(string(line)), "gitdir:")
	if !found {
		return "", false
	}
	s = strings.TrimSpace(s)
	if !filepath.IsAbs(s) {
		s = filepath.Join(filepath.Dir(p), s)
	}
	return filepath.Clean(s), true
}

// commonDir follows a linked worktree's "commondir" file to the clone's
// shared git dir; a main checkout's git dir is its own common dir.
func commonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	s := strings.TrimSpace(string(b))
	if !filepath.IsAbs(s) {
		s = filepath.Join(gitDir, s)
	}
	return filepath.Clean(s)
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// originURL reads remote "origin" from the clone's config; with no origin,
// a single remote stands in for it. insteadOf rewrites are not applied.
func originURL(common string) string {
	f, err := os.Open(filepath.Join(common, "config"))
	if err != nil {
		return ""
	}
	defer f.Close()
	urls := map[string]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			section = parseSection(line)
			continue
		}
		name, ok := strings.CutPrefix(section, "remote.")
		if !ok {
			continue
		}
		k, v, found := strings.Cut(line, "=")
		if found && strings.EqualFold(strings.TrimSpace(k), "url") {
			if _, seen := urls[name]; !seen {
				urls[name] = strings.Trim(strings.TrimSpace(v), `"`)
			}
		}
	}
	if u, ok := urls["origin"]; ok {
		return u
	}
	if len(urls) == 1 {
		for _, u := range urls {
			return u
		}
	}
	return ""
}

// parseSection turns `[remote "origin"]` into "remote.origin".
func parseSection(line string) string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "["), "]")
	name, sub, found := strings.Cut(line, " ")
	name = strings.ToLower(strings.TrimSpace(name))
	if !found {
		return name
	}
	return name + "." + strings.Trim(strings.TrimSpace(sub), `"`)
}
