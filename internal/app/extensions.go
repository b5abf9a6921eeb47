package app

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
)

// maxMirroredFiles bounds one source: a folder of thousands of files is
// not another agent's notes.
const maxMirroredFiles = 200

// folderSource mirrors the Markdown files of other agents' memory
// folders. roots maps a prefix under the mirror to a folder.
type folderSource struct {
	name  string
	roots func() map[string]string
}

func (s folderSource) Name() string { return s.name }

// Files reads the roots' .md files; a missing root has none. Links are
// not followed: the mirror shows what the agent itself keeps there.
func (s folderSource) Files(ctx context.Context) (map[string][]byte, error) {
	out := map[string][]byte{}
	for prefix, root := range s.roots() {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return fs.SkipDir // unreadable or missing: nothing to mirror
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() || !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".md") || len(out) >= maxMirroredFiles {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(filepath.Join(prefix, rel))] = b
			return nil
		})
		if err != nil && ctx.Err() != nil {
			return nil, err
		}
	}
	return out, nil
}

// extensionSources are Claude Code's auto memory
// (~/.claude/projects/<project>/memory/) and Codex's memories folder
// ($CODEX_HOME/memories/), found under the user's home.
func extensionSources(getenv func(string) string) []engine.ExtensionSource {
	home := getenv("HOME")
	claude := getenv("CLAUDE_CONFIG_DIR")
	if claude == "" && home != "" {
		claude = filepath.Join(home, ".claude")
	}
	codex := getenv("CODEX_HOME")
	if codex == "" && home != "" {
		codex = filepath.Join(home, ".codex")
	}
	var out []engine.ExtensionSource
	if claude != "" {
		out = append(out, folderSource{name: "claude_code", roots: func() map[string]string {
			m := map[string]string{}
			dirs, _ := filepath.Glob(filepath.Join(claude, "projects", "*", "memory"))
			for _, d := range dirs {
				m[filepath.Base(filepath.Dir(d))] = d
			}
			return m
		}})
	}
	if codex != "" {
		out = append(out, folderSource{name: "codex", roots: func() map[string]string {
			return map[string]string{".": filepath.Join(codex, "memories")}
		}})
	}
	return out
}
