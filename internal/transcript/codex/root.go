package codex

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Folders under CODEX_HOME that hold rollouts: live ones by date, and the
// ones the user archived (flat).
var rolloutDirs = []string{"sessions", "archived_sessions"}

// DefaultRoot is $CODEX_HOME, or ~/.codex when it is unset. It returns ""
// when neither can be known.
func DefaultRoot() string {
	if h := os.Getenv("CODEX_HOME"); h != "" {
		return h
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".codex")
}

// Discover lists the rollout files under root (a CODEX_HOME, or any folder
// of rollout files when root has neither sessions/ nor archived_sessions/),
// sorted. A
// rollout stored twice is listed once: the plain file over the .zst one, and
// the live copy in sessions/ over the one in archived_sessions/. A missing
// root or folder is not an error; unreadable folders are skipped.
func Discover(root string) ([]string, error) {
	type found struct {
		path string
		rank int
	}
	best := map[string]found{}
	dirs := rolloutDirs
	if !hasRolloutDirs(root) {
		// Not a CODEX_HOME: a folder of rollouts copied somewhere else.
		dirs = []string{""}
	}
	for i, dir := range dirs {
		base := filepath.Join(root, dir)
		err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
					if d != nil && d.IsDir() && path != base {
						return fs.SkipDir
					}
					return nil
				}
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			stem, zst, ok := rolloutStem(d.Name())
			if !ok {
				return nil
			}
			rank := i * 2
			if zst {
				rank++
			}
			if cur, seen := best[stem]; !seen || rank < cur.rank {
				best[stem] = found{path: path, rank: rank}
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("discover codex rollouts in %s: %w", base, err)
		}
	}
	out := make([]string, 0, len(best))
	for _, f := range best {
		out = append(out, f.path)
	}
	sort.Strings(out)
	return out, nil
}

func hasRolloutDirs(root string) bool {
	for _, d := range rolloutDirs {
		if fi, err := os.Stat(filepath.Join(root, d)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// rolloutStem names the rollout a file holds, and whether it is compressed.
func rolloutStem(name string) (stem string, zst, ok bool) {
	if !strings.HasPrefix(name, "rollout-") {
		return "", false, false
	}
	if s, found := strings.CutSuffix(name, ".jsonl.zst"); found {
		return s, true, true
	}
	if s, found := strings.CutSuffix(name, ".jsonl"); found {
		return s, false, true
	}
	return "", false, false
}
