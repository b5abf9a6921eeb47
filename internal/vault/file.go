package vault

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// FileInfo describes one file of the vault.
type FileInfo struct {
	Path    string // slash-separated, relative to the root
	Size    int64
	ModTime time.Time
}

// Read returns the content of the file at rel.
func (v *Vault) Read(ctx context.Context, rel string) ([]byte, error) {
	const op = "vault read"
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rel, err := v.resolve(rel, false)
	if err != nil {
		return nil, err
	}
	data, err := v.dir.ReadFile(rel)
	if err != nil {
		return nil, errPath(op, rel, err)
	}
	return data, nil
}

// Write replaces the file at rel with data atomically: the bytes go to a
// temporary file in the same folder, are synced, and are renamed over the
// target, so a reader sees the old file or the new one, never half of it.
// Missing folders are created (mode 0700); files are written with 0600.
func (v *Vault) Write(ctx context.Context, rel string, data []byte) error {
	const op = "vault write"
	if err := ctx.Err(); err != nil {
		return err
	}
	rel, err := v.resolve(rel, false)
	if err != nil {
		return err
	}
	if fi, err := v.dir.Lstat(rel); err == nil && fi.IsDir() {
		return memory.Errorf(memory.CodeInvalid, "path %q is a directory", rel)
	}
	dir := path.Dir(rel)
	if err := v.dir.MkdirAll(dir, 0o700); err != nil {
		return errPath(op, rel, err)
	}
	var suffix [8]byte
	_, _ = rand.Read(suffix[:])
	tmp := path.Join(dir, tmpPrefix+hex.EncodeToString(suffix[:]))
	f, err := v.dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return errPath(op, rel, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = v.dir.Rename(tmp, rel)
	}
	if err != nil {
		_ = v.dir.Remove(tmp)
		return errPath(op, rel, err)
	}
	return nil
}

// Remove deletes the file at rel. Folders are kept: the layout must stay,
// and git does not track empty folders anyway.
func (v *Vault) Remove(ctx context.Context, rel string) error {
	const op = "vault remove"
	if err := ctx.Err(); err != nil {
		return err
	}
	rel, err := v.resolve(rel, false)
	if err != nil {
		return err
	}
	fi, err := v.dir.Lstat(rel)
	if err != nil {
		return errPath(op, rel, err)
	}
	if fi.IsDir() {
		return memory.Errorf(memory.CodeInvalid, "path %q is a directory; remove its files instead", rel)
	}
	if err := v.dir.Remove(rel); err != nil {
		return errPath(op, rel, err)
	}
	return nil
}

// List returns every file under dir ("" or "." for the whole vault),
// recursively, sorted by path. It shows exactly the files a baseline
// would commit.
func (v *Vault) List(ctx context.Context, dir string) ([]FileInfo, error) {
	const op = "vault list"
	rel, err := v.resolve(dir, true)
	if err != nil {
		return nil, err
	}
	fi, err := v.dir.Lstat(rel)
	if err != nil {
		return nil, errPath(op, rel, err)
	}
	if !fi.IsDir() {
		return nil, memory.Errorf(memory.CodeInvalid, "path %q is a file, not a directory", rel)
	}
	var out []FileInfo
	err = v.walk(ctx, rel, func(p string, d fs.DirEntry) error {
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed while we walked
		}
		if err != nil {
			return err
		}
		out = append(out, FileInfo{Path: p, Size: info.Size(), ModTime: info.ModTime()})
		return nil
	})
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, op, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// walk calls fn for every regular file under dir, skipping .git folders at
// any depth, symbolic links, special files and ignored names. Paths are
// slash-separated and relative to the root.
func (v *Vault) walk(ctx context.Context, dir string, fn func(rel string, d fs.DirEntry) error) error {
	return fs.WalkDir(v.dir.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p != dir {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if strings.EqualFold(d.Name(), ".git") && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || ignoredName(d.Name()) {
			return nil
		}
		return fn(p, d)
	})
}
