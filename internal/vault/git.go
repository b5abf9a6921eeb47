package vault

import (
	"context"
	"errors"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Commit is one baseline in the vault's history.
type Commit struct {
	Hash    string
	Message string
	When    time.Time
}

// snapFile is one file of the working tree as the snapshot sees it.
type snapFile struct {
	path string
	data []byte
	hash plumbing.Hash
	info fs.FileInfo
}

// Baseline records the working tree as the new baseline: new files are
// added, missing ones removed, every file committed as a regular file.
//
// A commit is made only when the tree differs from the last baseline (or
// when there is none yet, even for an empty vault, so that a baseline
// always exists after the first call). An unchanged tree returns the
// current baseline's hash: it already is the baseline of this pass, and the
// next Diff is the same either way. So every successful pass gets a
// baseline hash, and Log grows only when memory actually changed.
func (v *Vault) Baseline(ctx context.Context, message string) (string, error) {
	const op = "vault baseline"
	v.mu.Lock()
	defer v.mu.Unlock()
	files, err := v.snapshot(ctx)
	if err != nil {
		return "", memory.Wrap(memory.CodeInternal, op, err)
	}
	tree, err := v.writeTree(files)
	if err != nil {
		return "", memory.Wrap(memory.CodeInternal, op, err)
	}
	headRef, head, err := v.head()
	if err != nil {
		return "", memory.Wrap(memory.CodeInternal, op, err)
	}
	if head != nil && head.TreeHash == tree {
		return head.Hash.String(), nil
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if strings.TrimSpace(message) == "" {
		message = "cairn baseline"
	}
	sig := object.Signature{Name: committerName, Email: committerEmail, When: v.now()}
	c := &object.Commit{Author: sig, Committer: sig, Message: strings.TrimRight(message, "\n") + "\n", TreeHash: tree}
	if head != nil {
		c.ParentHashes = []plumbing.Hash{head.Hash}
	}
	hash, err := v.store(c)
	if err != nil {
		return "", memory.Wrap(memory.CodeInternal, op, err)
	}
	if err := v.moveBranch(hash, headRef); err != nil {
		return "", memory.Wrap(memory.CodeConflict, op, err)
	}
	if err := v.writeIndex(files); err != nil {
		return "", memory.Wrap(memory.CodeInternal, op, err)
	}
	return hash.String(), nil
}

// Log returns the baselines, newest first. A vault with no baseline yet
// has an empty log.
func (v *Vault) Log(ctx context.Context) ([]Commit, error) {
	const op = "vault log"
	v.mu.Lock()
	defer v.mu.Unlock()
	_, head, err := v.head()
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, op, err)
	}
	if head == nil {
		return nil, nil
	}
	var out []Commit
	for c := head; ; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, Commit{Hash: c.Hash.String(), Message: strings.TrimRight(c.Message, "\n"), When: c.Committer.When})
		if len(c.ParentHashes) == 0 {
			return out, nil
		}
		// Baselines form a line; a person's merge would be followed by
		// its first parent, as git log --first-parent does.
		c, err = v.repo.CommitObject(c.ParentHashes[0])
		if err != nil {
			return nil, memory.Wrap(memory.CodeInternal, op, err)
		}
	}
}

// head returns the reference HEAD points at (resolved one level) and the
// commit there, or a nil commit when there is no baseline yet.
func (v *Vault) head() (*plumbing.Reference, *object.Commit, error) {
	ref, err := v.repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return nil, nil, err
	}
	if ref.Type() == plumbing.SymbolicReference {
		target, err := v.repo.Storer.Reference(ref.Target())
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return plumbing.NewSymbolicReference(ref.Target(), ref.Target()), nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		ref = target
	}
	c, err := v.repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, nil, err
	}
	return ref, c, nil
}

// moveBranch points the branch HEAD names at hash, failing if another
// writer moved it since head() read it.
func (v *Vault) moveBranch(hash plumbing.Hash, old *plumbing.Reference) error {
	next := plumbing.NewHashReference(old.Name(), hash)
	if old.Type() != plumbing.HashReference {
		old = nil // the branch has no commit yet
	}
	return v.repo.Storer.CheckAndSetReference(next, old)
}

// snapshot reads every file the vault tracks, sorted by path.
func (v *Vault) snapshot(ctx context.Context) ([]snapFile, error) {
	var files []snapFile
	err := v.walk(ctx, ".", func(p string, d fs.DirEntry) error {
		data, err := v.dir.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, snapFile{path: p, data: data, hash: plumbing.ComputeHash(plumbing.BlobObject, data), info: info})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	return files, err
}

// dirNode is one folder while a tree is being built.
type dirNode struct {
	files map[string]plumbing.Hash
	dirs  map[string]*dirNode
}

func newDirNode() *dirNode {
	return &dirNode{files: map[string]plumbing.Hash{}, dirs: map[string]*dirNode{}}
}

// writeTree stores the blobs and trees of files and returns the root tree.
func (v *Vault) writeTree(files []snapFile) (plumbing.Hash, error) {
	root := newDirNode()
	for _, f := range files {
		if err := v.storeBlob(f); err != nil {
			return plumbing.ZeroHash, err
		}
		n := root
		parts := strings.Split(f.path, "/")
		for _, d := range parts[:len(parts)-1] {
			if n.dirs[d] == nil {
				n.dirs[d] = newDirNode()
			}
			n = n.dirs[d]
		}
		n.files[parts[len(parts)-1]] = f.hash
	}
	return v.storeTree(root)
}

func (v *Vault) storeTree(n *dirNode) (plumbing.Hash, error) {
	t := &object.Tree{}
	for name, sub := range n.dirs {
		h, err := v.storeTree(sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	for name, h := range n.files {
		t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h})
	}
	sort.Sort(object.TreeEntrySorter(t.Entries))
	return v.store(t)
}

// encoder is what object.Tree and object.Commit have in common.
type encoder interface {
	Encode(plumbing.EncodedObject) error
}

// store encodes o and writes it unless the repository already has it.
func (v *Vault) store(o encoder) (plumbing.Hash, error) {
	obj := v.repo.Storer.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	if v.repo.Storer.HasEncodedObject(obj.Hash()) == nil {
		return obj.Hash(), nil
	}
	return v.repo.Storer.SetEncodedObject(obj)
}

func (v *Vault) storeBlob(f snapFile) error {
	if v.repo.Storer.HasEncodedObject(f.hash) == nil {
		return nil
	}
	obj := v.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return err
	}
	if _, err := w.Write(f.data); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	_, err = v.repo.Storer.SetEncodedObject(obj)
	return err
}

// writeIndex makes git's index match the new baseline, so that a person
// running `git status` in the vault sees a clean tree, not every file
// deleted and untracked.
func (v *Vault) writeIndex(files []snapFile) error {
	idx := &index.Index{Version: 2}
	for _, f := range files {
		idx.Entries = append(idx.Entries, &index.Entry{
			Name:       f.path,
			Hash:       f.hash,
			Mode:       filemode.Regular,
			Size:       uint32(f.info.Size()),
			ModifiedAt: f.info.ModTime(),
			CreatedAt:  f.info.ModTime(),
		})
	}
	return v.repo.Storer.SetIndex(idx)
}

// baselineFiles returns path → file of the last baseline, empty when there
// is none.
func (v *Vault) baselineFiles() (map[string]*object.File, error) {
	out := map[string]*object.File{}
	_, head, err := v.head()
	if err != nil || head == nil {
		return out, err
	}
	tree, err := head.Tree()
	if err != nil {
		return nil, err
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		out[f.Name] = f
		return nil
	})
	return out, err
}
