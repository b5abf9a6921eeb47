// Package filelock takes an exclusive advisory lock on a file without
// waiting: one process of a kind per data dir (the resident process, the
// background round). The kernel drops the lock when its holder exits, so a
// crash never leaves a stale lock behind. Standard library only: the hook
// client links it.
package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// Try locks path, creating it and its folder (private to the user) as
// needed. ok is false when another process holds the lock; the lock is
// held until release is called or the process ends.
func Try(path string) (release func(), ok bool, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, err
	}
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(fh.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		fh.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return func() { fh.Close() }, true, nil
}
