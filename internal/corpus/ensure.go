package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Version names the generator's output format. Bump it whenever a change
// alters the bytes generated for the same options, so that Ensure does not
// reuse a corpus made by an older generator.
const Version = 1

// manifestName is the file, beside claude/ and codex/, that marks a corpus
// as complete and records what it holds.
const manifestName = "corpus.json"

// staleAfter is how old a leftover temporary directory must be before
// Ensure removes it; a younger one may belong to a generation still
// running in another process.
const staleAfter = 24 * time.Hour

type manifest struct {
	Version int     `json:"version"`
	Options Options `json:"options"`
	Stats   Stats   `json:"stats"`
}

// DefaultCacheDir is where benchmarks keep corpora: $XDG_CACHE_HOME/cairn-bench,
// or ~/.cache/cairn-bench. It is outside any repository on purpose.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "cairn-bench"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("corpus cache dir: %w", err)
	}
	return filepath.Join(home, ".cache", "cairn-bench"), nil
}

// Ensure returns the directory of the corpus for opts under cacheDir
// (corpus-<seed>-<target bytes>), generating it first if it is missing or
// was made by another generator version or other options. Generation goes
// to a temporary directory that is renamed into place only once complete,
// so an interrupted run never leaves a corpus that looks finished.
func Ensure(cacheDir string, opts Options) (string, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return "", err
	}
	name := fmt.Sprintf("corpus-%d-%d", o.Seed, o.TargetBytes)
	final := filepath.Join(cacheDir, name)
	if matches(final, o) {
		return final, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("ensure corpus: %w", err)
	}
	removeStale(cacheDir, "."+name+".tmp-")
	tmp, err := os.MkdirTemp(cacheDir, "."+name+".tmp-")
	if err != nil {
		return "", fmt.Errorf("ensure corpus: %w", err)
	}
	if err := build(tmp, o); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	// An outdated corpus under the final name is moved aside first: a
	// directory cannot be renamed onto a non-empty one.
	if _, err := os.Stat(final); err == nil {
		old := tmp + ".old"
		if err := os.Rename(final, old); err == nil {
			os.RemoveAll(old)
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another process may have finished the same corpus meanwhile.
		if matches(final, o) {
			os.RemoveAll(tmp)
			return final, nil
		}
		os.RemoveAll(tmp)
		return "", fmt.Errorf("ensure corpus: %w", err)
	}
	return final, nil
}

// build generates into dir and writes the manifest last.
func build(dir string, o Options) error {
	st, err := Generate(dir, o)
	if err != nil {
		return fmt.Errorf("ensure corpus: %w", err)
	}
	b, err := json.MarshalIndent(manifest{Version: Version, Options: o, Stats: st}, "", "  ")
	if err != nil {
		return fmt.Errorf("ensure corpus: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, manifestName), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("ensure corpus: %w", err)
	}
	return nil
}

// Load returns the stats recorded for a corpus that Ensure made.
func Load(dir string) (Stats, error) {
	m, err := readManifest(dir)
	if err != nil {
		return Stats{}, err
	}
	return m.Stats, nil
}

func readManifest(dir string) (manifest, error) {
	var m manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return m, fmt.Errorf("read corpus manifest: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("read corpus manifest %s: %w", dir, err)
	}
	return m, nil
}

// matches reports whether dir holds a complete corpus for o from this
// generator version. A missing or unreadable manifest means it does not.
func matches(dir string, o Options) bool {
	m, err := readManifest(dir)
	return err == nil && m.Version == Version && sameOptions(m.Options, o)
}

func sameOptions(a, b Options) bool {
	return a.TargetBytes == b.TargetBytes && a.Seed == b.Seed &&
		a.MinFileBytes == b.MinFileBytes && a.MaxFileBytes == b.MaxFileBytes &&
		a.MinTurns == b.MinTurns && a.MaxTurns == b.MaxTurns &&
		a.SubagentShare == b.SubagentShare && a.Start.Equal(b.Start)
}

// removeStale deletes temporary directories with prefix that an
// interrupted generation left behind long ago.
func removeStale(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, d := range entries {
		if !d.IsDir() || !strings.HasPrefix(d.Name(), prefix) {
			continue
		}
		if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > staleAfter {
			os.RemoveAll(filepath.Join(dir, d.Name()))
		}
	}
}

// EnsureBuilt returns cacheDir/name, first running build into a fresh
// temporary directory and renaming that into place when it is missing.
// The name must change whenever what build makes changes (carry a version
// in it): a directory under the final name is complete by construction,
// since only a successful build is renamed there.
func EnsureBuilt(cacheDir, name string, build func(dir string) error) (string, error) {
	final := filepath.Join(cacheDir, name)
	if _, err := os.Stat(final); err == nil {
		return final, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("ensure %s: %w", name, err)
	}
	removeStale(cacheDir, "."+name+".tmp-")
	tmp, err := os.MkdirTemp(cacheDir, "."+name+".tmp-")
	if err != nil {
		return "", fmt.Errorf("ensure %s: %w", name, err)
	}
	if err := build(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("ensure %s: %w", name, err)
	}
	if err := os.Rename(tmp, final); err != nil {
		os.RemoveAll(tmp)
		// Another process may have finished the same build meanwhile.
		if _, serr := os.Stat(final); serr == nil {
			return final, nil
		}
		return "", fmt.Errorf("ensure %s: %w", name, err)
	}
	return final, nil
}
