package engine

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/redact"
)

// ExtensionSource is another agent's memory folder (Claude Code's auto
// memory, Codex's memories), mirrored read-only into the vault.
type ExtensionSource interface {
	// Name is the folder under extensions/ it is mirrored to.
	Name() string
	// Files returns its text files by slash-separated relative path; a
	// source that does not exist returns none.
	Files(ctx context.Context) (map[string][]byte, error)
}

// maxExtensionFile bounds one mirrored file: these are notes, and a huge
// file is a mistake that must not flood consolidation.
const maxExtensionFile = 256 << 10

// mirrorExtensions copies each source's files under extensions/<name>/,
// redacted, and removes mirrors whose source file is gone, so the
// deletion reaches consolidation through the diff like any other.
func (e *Engine) mirrorExtensions(ctx context.Context, vf VaultFiles) (int, error) {
	n := 0
	for _, src := range e.extensions {
		dir := "extensions/" + src.Name()
		files, err := src.Files(ctx)
		if err != nil {
			return n, err
		}
		want := map[string]string{}
		for rel, b := range files {
			rel = strings.Trim(strings.ReplaceAll(rel, "\\", "/"), "/")
			if rel == "" || len(b) > maxExtensionFile || slices.Contains(strings.Split(rel, "/"), "..") {
				continue
			}
			text, _ := redact.Default().Redact(string(b))
			want[dir+"/"+rel] = text
		}
		have, err := vf.List(ctx, dir)
		if err != nil && !memory.IsCode(err, memory.CodeNotFound) {
			return n, err
		}
		for _, p := range have {
			if _, ok := want[p]; !ok {
				if err := vf.Remove(ctx, p); err != nil && !memory.IsCode(err, memory.CodeNotFound) {
					return n, err
				}
				n++
			}
		}
		for _, p := range slices.Sorted(maps.Keys(want)) {
			old, err := vf.Read(ctx, p)
			if err == nil && string(old) == want[p] {
				continue
			}
			if err := vf.Write(ctx, p, []byte(want[p])); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
