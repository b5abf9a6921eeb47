package sqlite

import (
	"context"
	"sync"
	"sync/atomic"
)

// checkpointEvery is how many write transactions pass between nudges to
// the background checkpointer.
const checkpointEvery = 64

// checkpointer copies the WAL back into the store on its own connection
// and goroutine, so a writer rarely pays for it. A checkpoint costs a
// writer its wall time more than its CPU: two fsyncs and a page copy, ~25
// ms each at wal_autocheckpoint(4000), which was a quarter of a
// one-statement write's time (BENCHMARKS.md, statements). A PASSIVE
// checkpoint runs beside the writer and never blocks it. The writer's own
// autocheckpoint stays as the backstop: it restarts the log, which a
// checkpoint racing a busy writer seldom lets happen, and it then finds
// most frames already copied.
type checkpointer struct {
	once    sync.Once
	nudge   chan struct{}
	stop    chan struct{}
	done    chan struct{}
	commits int // guarded by DB.wmu
	runs    atomic.Int64
}

// committed counts a write transaction; called with wmu held.
func (db *DB) committed() {
	c := &db.ckpt
	if c.commits++; c.commits < checkpointEvery {
		return
	}
	c.commits = 0
	c.once.Do(func() {
		c.nudge = make(chan struct{}, 1)
		c.stop = make(chan struct{})
		c.done = make(chan struct{})
		go db.checkpointLoop()
	})
	select {
	case c.nudge <- struct{}{}:
	default:
	}
}

func (db *DB) checkpointLoop() {
	c := &db.ckpt
	defer close(c.done)
	for {
		select {
		case <-c.stop:
			return
		case <-c.nudge:
		}
		// An error (a busy lock, a closing pool) leaves the work to the
		// next nudge or to the writer's own checkpoint.
		if _, err := db.write.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`); err == nil {
			c.runs.Add(1)
		}
	}
}

// stopCheckpoints ends the background checkpointer, if it started, and
// waits for a checkpoint in flight; called with wmu held.
func (db *DB) stopCheckpoints() {
	c := &db.ckpt
	c.once.Do(func() {}) // no start after this
	if c.stop != nil {
		close(c.stop)
		<-c.done
		c.stop = nil
	}
}
