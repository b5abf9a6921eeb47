package vault

import (
	"context"
	"io"
	"sort"

	"github.com/cairn-memory/cairn/internal/memory"
)

// ChangeKind says what happened to a file since the last baseline.
type ChangeKind int

// The kinds of change. A rename shows as a deletion and an addition.
const (
	Added ChangeKind = iota + 1
	Modified
	Deleted
)

func (k ChangeKind) String() string {
	switch k {
	case Added:
		return "added"
	case Modified:
		return "modified"
	case Deleted:
		return "deleted"
	}
	return "unknown"
}

// Change is one file that differs between the last baseline and the disk.
// Before is nil for Added, After is nil for Deleted.
type Change struct {
	Path   string
	Kind   ChangeKind
	Before []byte // content at the baseline
	After  []byte // content on disk now
}

// Diff returns what changed from the last baseline to the files on disk,
// sorted by path. Files are compared by content, so a file touched but not
// changed is not reported. With no baseline yet every file is Added.
func (v *Vault) Diff(ctx context.Context) ([]Change, error) {
	const op = "vault diff"
	v.mu.Lock()
	defer v.mu.Unlock()
	base, err := v.baselineFiles()
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, op, err)
	}
	files, err := v.snapshot(ctx)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, op, err)
	}
	var out []Change
	for _, f := range files {
		old, ok := base[f.path]
		delete(base, f.path)
		switch {
		case !ok:
			out = append(out, Change{Path: f.path, Kind: Added, After: f.data})
		case old.Hash != f.hash:
			before, err := blobBytes(old.Reader)
			if err != nil {
				return nil, memory.Wrap(memory.CodeInternal, op, err)
			}
			out = append(out, Change{Path: f.path, Kind: Modified, Before: before, After: f.data})
		}
	}
	for p, old := range base {
		before, err := blobBytes(old.Reader)
		if err != nil {
			return nil, memory.Wrap(memory.CodeInternal, op, err)
		}
		out = append(out, Change{Path: p, Kind: Deleted, Before: before})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

func blobBytes(open func() (io.ReadCloser, error)) ([]byte, error) {
	r, err := open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
