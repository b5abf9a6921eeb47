package cli

import (
	"os"
	"path/filepath"
	"syscall"
)

// workerLock is held by a running `cairn worker --once`: a hook that finds
// it held starts no other, so a long round (a large store's first
// maintenance) does not gather a process per prompt.
func (f *Factory) workerLock() string {
	return filepath.Join(f.Paths().DataDir, "run", "worker.lock")
}

// tryLock takes an exclusive lock on path without waiting; ok is false
// when another process holds it. The lock goes with release or the
// process.
func tryLock(path string) (release func(), ok bool, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, err
	}
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(fh.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		fh.Close()
		if err == syscall.EWOULDBLOCK {
			return nil, false, nil
		}
		return nil, false, err
	}
	return func() { fh.Close() }, true, nil
}

// StartWorker starts a detached `cairn worker --once` unless one is
// running.
func (f *Factory) StartWorker() error {
	release, ok, err := tryLock(f.workerLock())
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	release()
	return f.Spawn("worker", "--once")
}
