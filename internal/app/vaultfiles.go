package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/vault"
)

// vaultFiles adapts a vault folder to the engine's port. It opens the
// folder (and its repository) on first use, so a hook that only reads the
// summary never creates a vault or touches git.
type vaultFiles struct {
	dataDir, version string
	mu               sync.Mutex
	v                *vault.Vault
}

// vaultOpener opens the memory folders under dataDir.
func vaultOpener(dataDir string) engine.VaultOpener {
	return func(version string) (engine.VaultFiles, error) {
		return &vaultFiles{dataDir: dataDir, version: version}, nil
	}
}

func (f *vaultFiles) root() string {
	if f.version == distill.V2 {
		return filepath.Join(f.dataDir, vault.V2Dir)
	}
	return filepath.Join(f.dataDir, vault.V1Dir)
}

// open opens the folder once; a failure is retried on the next call.
func (f *vaultFiles) open() (*vault.Vault, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.v == nil {
		v, err := vault.OpenRoot(f.dataDir, f.version)
		if err != nil {
			return nil, err
		}
		f.v = v
	}
	return f.v, nil
}

func (f *vaultFiles) opened() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.v != nil
}

func (f *vaultFiles) Read(ctx context.Context, p string) ([]byte, error) {
	v, err := f.open()
	if err != nil {
		return nil, err
	}
	return v.Read(ctx, p)
}

func (f *vaultFiles) Write(ctx context.Context, p string, data []byte) error {
	v, err := f.open()
	if err != nil {
		return err
	}
	return v.Write(ctx, p, data)
}

func (f *vaultFiles) Remove(ctx context.Context, p string) error {
	v, err := f.open()
	if err != nil {
		return err
	}
	return v.Remove(ctx, p)
}

func (f *vaultFiles) List(ctx context.Context, dir string) ([]string, error) {
	v, err := f.open()
	if err != nil {
		return nil, err
	}
	infos, err := v.List(ctx, dir)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(infos))
	for i, fi := range infos {
		out[i] = fi.Path
	}
	return out, nil
}

func (f *vaultFiles) Diff(ctx context.Context) ([]distill.Change, error) {
	v, err := f.open()
	if err != nil {
		return nil, err
	}
	cs, err := v.Diff(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]distill.Change, len(cs))
	for i, c := range cs {
		out[i] = distill.Change{Path: c.Path, Kind: changeKind(c.Kind), Before: c.Before, After: c.After}
	}
	return out, nil
}

func changeKind(k vault.ChangeKind) distill.ChangeKind {
	switch k {
	case vault.Added:
		return distill.Added
	case vault.Deleted:
		return distill.Deleted
	}
	return distill.Modified
}

func (f *vaultFiles) Baseline(ctx context.Context, message string) (string, error) {
	v, err := f.open()
	if err != nil {
		return "", err
	}
	return v.Baseline(ctx, message)
}

func (f *vaultFiles) Baselines(ctx context.Context) (int, error) {
	v, err := f.open()
	if err != nil {
		return 0, err
	}
	log, err := v.Log(ctx)
	return len(log), err
}

// Summary reads memory_summary.md. Until the vault is opened for
// something else it reads the file directly (refusing a link), and a
// missing folder is an empty summary, not a new vault.
func (f *vaultFiles) Summary(ctx context.Context) (string, error) {
	if !f.opened() {
		fi, err := os.Lstat(filepath.Join(f.root(), vault.SummaryFile))
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		if err != nil || !fi.Mode().IsRegular() {
			return "", err
		}
	}
	v, err := f.open()
	if err != nil {
		return "", err
	}
	s, _, err := v.Summary(ctx)
	return s, err
}

// Reset wipes the folder and its history (see vault.Reset's refusals).
func (f *vaultFiles) Reset(ctx context.Context) error {
	if _, err := os.Lstat(f.root()); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	v, err := f.open()
	if err != nil {
		return err
	}
	return v.Reset(ctx)
}

// Grep searches the folder's text files.
func (f *vaultFiles) Grep(ctx context.Context, pattern string, regex bool, limit int) ([]engine.VaultMatch, error) {
	v, err := f.open()
	if err != nil {
		return nil, err
	}
	ms, err := v.Grep(ctx, pattern, vault.GrepOptions{Regex: regex, Max: limit})
	if err != nil {
		return nil, err
	}
	out := make([]engine.VaultMatch, len(ms))
	for i, m := range ms {
		out[i] = engine.VaultMatch{Path: m.Path, Line: m.Line, Text: m.Text}
	}
	return out, nil
}

// Close releases the folder.
func (f *vaultFiles) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.v != nil {
		return f.v.Close()
	}
	return nil
}

// Root is the folder's path.
func (f *vaultFiles) Root() string { return f.root() }
