package vault

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Reset deletes every file and the whole git history of the vault and
// leaves it empty, laid out and initialized, as Open would. The caller must
// have confirmed with the user. It refuses when the root or the data
// directory holding it is a symbolic link, or when the folder at the root's
// path is no longer the one opened: deleting through a link could delete
// something else. Files are removed through the directory handle taken at
// Open, never by path.
func (v *Vault) Reset(ctx context.Context) error {
	const op = "vault reset"
	v.mu.Lock()
	defer v.mu.Unlock()
	v.sumMu.Lock()
	defer v.sumMu.Unlock()
	if err := v.checkResetSafe(); err != nil {
		return err
	}
	entries, err := fs.ReadDir(v.dir.FS(), ".")
	if err != nil {
		return memory.Wrap(memory.CodeInternal, op, err)
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := v.dir.RemoveAll(e.Name()); err != nil {
			return memory.Wrap(memory.CodeInternal, op, err)
		}
	}
	v.repo = nil
	v.sum = summaryCache{}
	return v.prepare()
}

func (v *Vault) checkResetSafe() error {
	data := filepath.Dir(v.root)
	for _, p := range []struct{ path, what string }{{v.root, "vault folder"}, {data, "data directory"}} {
		fi, err := os.Lstat(p.path)
		if err != nil {
			return memory.Wrap(memory.CodeInternal, "vault reset", err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return memory.Errorf(memory.CodeInvalid, "refusing to reset: the %s %s is a symbolic link", p.what, p.path)
		}
	}
	if err := checkRoot(v.root); err != nil {
		return memory.Wrap(memory.CodeInvalid, "refusing to reset", err)
	}
	atPath, err := os.Lstat(v.root)
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "vault reset", err)
	}
	held, err := v.dir.Stat(".")
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "vault reset", err)
	}
	if !os.SameFile(atPath, held) {
		return memory.Errorf(memory.CodeInvalid, "refusing to reset: %s is no longer the folder cairn opened", v.root)
	}
	return nil
}
