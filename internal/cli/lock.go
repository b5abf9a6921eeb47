package cli

import (
	"path/filepath"

	"github.com/cairn-memory/cairn/internal/filelock"
)

// workerLock is held by a running `cairn worker --once`: a hook that finds
// it held starts no other, so a long round (a large store's first
// maintenance) does not gather a process per prompt.
func (f *Factory) workerLock() string {
	return filepath.Join(f.Paths().DataDir, "run", "worker.lock")
}

// StartWorker starts a detached `cairn worker --once` unless one is
// running.
func (f *Factory) StartWorker() error {
	release, ok, err := filelock.Try(f.workerLock())
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	release()
	return f.Spawn("worker", "--once")
}
