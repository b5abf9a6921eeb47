package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// fileEdit is one file's planned change: its content before and after.
// Nothing touches the disk until every file of a run has been planned, so
// an unreadable or invalid file stops the run before anything is written.
type fileEdit struct {
	path    string
	exists  bool
	before  []byte
	mode    fs.FileMode // of the existing file
	after   []byte
	remove  bool        // delete the file instead of writing after
	newMode fs.FileMode // for a file that does not exist yet
	dirMode fs.FileMode // for directories that do not exist yet
	changes []Change
	// noBackup is set for a second edit of a file in the same run: the
	// first edit's backup already holds the original.
	noBackup bool
}

// loadFile reads path into a new edit whose after equals before.
func loadFile(path string, newMode, dirMode fs.FileMode) (*fileEdit, error) {
	e := &fileEdit{path: path, newMode: newMode, dirMode: dirMode}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return e, nil
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", path, err)
	case fi.IsDir():
		return nil, fmt.Errorf("read %s: it is a directory", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	e.exists, e.before, e.after, e.mode = true, data, data, fi.Mode().Perm()
	return e, nil
}

// action says what applying the edit does.
func (e *fileEdit) action() string {
	switch {
	case e.remove && e.exists:
		return ActionDeleted
	case e.remove:
		return ActionUnchanged
	case !e.exists && e.after == nil:
		return ActionUnchanged
	case !e.exists:
		return ActionCreated
	case bytes.Equal(e.before, e.after):
		return ActionUnchanged
	}
	return ActionUpdated
}

// report describes the edit; backup is filled in by apply.
func (e *fileEdit) report() FileReport {
	ch := e.changes
	if ch == nil {
		ch = []Change{}
	}
	return FileReport{Path: e.path, Action: e.action(), Changes: ch}
}

// apply writes the edit: a backup of the old file first, then the new
// content through a temporary file renamed into place, so a crash leaves
// either the old file or the new one. A symlinked file is written where
// the link points, and the link stays.
func (e *fileEdit) apply(now time.Time) (FileReport, error) {
	r := e.report()
	if r.Action == ActionUnchanged {
		return r, nil
	}
	target := e.path
	if e.exists {
		if real, err := filepath.EvalSymlinks(e.path); err == nil {
			target = real
		}
		if !e.noBackup {
			b, err := backup(e.path, e.before, e.mode, now)
			if err != nil {
				return r, err
			}
			r.Backup = b
		}
	}
	if e.remove {
		if err := os.Remove(target); err != nil {
			return r, fmt.Errorf("remove %s: %w", e.path, err)
		}
		return r, nil
	}
	mode := e.newMode
	if e.exists {
		mode = e.mode
	}
	if err := os.MkdirAll(filepath.Dir(target), e.dirMode); err != nil {
		return r, fmt.Errorf("create the directory of %s: %w", e.path, err)
	}
	if err := writeAtomic(target, e.after, mode); err != nil {
		return r, fmt.Errorf("write %s: %w", e.path, err)
	}
	return r, nil
}

// backupSuffix is the name of a backup: <file>.cairn-backup-<UTC time>.
const backupSuffix = ".cairn-backup-"

// backup copies the old content next to the file, never over another
// backup.
func backup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := path + backupSuffix + now.UTC().Format("20060102T150405Z")
	name := base
	for i := 2; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode|0o200)
		if errors.Is(err, fs.ErrExist) {
			name = fmt.Sprintf("%s-%d", base, i)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(name)
			return "", fmt.Errorf("back up %s: %w", path, werr)
		}
		return name, nil
	}
}

func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".cairn-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
