package sqlite

import (
	"context"
	"database/sql"
	"sync/atomic"
)

// Warm reads: a caller about to make a run of reads (a recall block) can
// take the writer connection for them, when it is free.
//
// Why: in WAL mode a connection drops its whole page cache at its next
// read after another connection commits. A resident process commits a
// receipt after every block, so its read pool started every request with
// an empty cache: about 450 pread calls per request at 1M parts, each a
// system call on the virtual machines hooks run on. The connection that
// commits keeps its cache, and the writer's is sized for that
// (writerCacheKiB). A pinned run of reads sees what is committed, as the
// read pool does, and its own writes (a receipt) run under the same lock.
//
// A pin never waits: with the writer busy (a write, another pin) the reads
// go to the read pool as before.
//
// Pinned reads run with ctx's values but not its cancellation (stmtCtx),
// checked before each read instead. Given a context that can end, the
// driver and database/sql start a goroutine per query to watch it and wrap
// each row's step: 5–28% of a request block in runs at 1M parts
// (BENCHMARKS.md, hook). A pinned run is a recall's reads, each bounded
// and at most milliseconds, so stopping at the next read is soon enough.

// writerCacheKiB is the writer connection's page cache: pinned reads keep
// the pages of earlier requests there. At 1M parts a request block read
// in 16 MiB kept ran ~18% faster than with 1 MiB (BENCHMARKS.md, hook).
const writerCacheKiB = 16 << 10

// writerMapBytes is how much of the store the writer connection maps
// (mmap_size): SQLite's own ceiling in this build, 2 GiB less 64 KiB, so a
// store that size or smaller is read from the map whole. Pages read
// through the map cost neither a pread nor a copy, and the mapping
// outlives the connection's own commits as its cache does; it is dropped
// only when another connection commits. A resident process's answer at 1M
// parts fell from 2.9 to 2.4 ms p50 (BENCHMARKS.md, hook, twelfth pass).
// The pages mapped are the kernel's page cache, which pread fills anyway:
// the process's resident size counts them, its own memory does not grow.
const writerMapBytes = 0x7fff0000

type pinKey struct{}

// readPin marks a context whose reads of db run on the writer connection
// while held is set; the pinning goroutine holds db.wmu until release.
type readPin struct {
	db   *DB
	held atomic.Bool
}

// PinReads returns a context whose reads of this store run on the writer
// connection, and the release that gives the connection back; the caller
// must call it. Until then the context belongs to the calling goroutine:
// writes made with it run on the pinned connection without taking the
// write lock again. When the writer is busy, or ctx is already pinned,
// ctx comes back unchanged with a release that does nothing.
func (db *DB) PinReads(ctx context.Context) (context.Context, func()) {
	if db.pinned(ctx) {
		return ctx, func() {}
	}
	if !db.wmu.TryLock() {
		return ctx, func() {}
	}
	if _, err := db.writerLocked(ctx); err != nil {
		db.wmu.Unlock()
		return ctx, func() {}
	}
	p := &readPin{db: db}
	p.held.Store(true)
	return context.WithValue(ctx, pinKey{}, p), func() {
		if p.held.Swap(false) {
			db.wmu.Unlock()
		}
	}
}

// pinned reports whether ctx holds this store's writer (PinReads).
func (db *DB) pinned(ctx context.Context) bool {
	p, ok := ctx.Value(pinKey{}).(*readPin)
	return ok && p.db == db && p.held.Load()
}

// lockWriter takes the write lock unless ctx already holds it through a
// pin, and returns its unlock.
func (db *DB) lockWriter(ctx context.Context) func() {
	if db.pinned(ctx) {
		return func() {}
	}
	db.wmu.Lock()
	return db.wmu.Unlock
}

// pinnedConn returns the writer connection when ctx pins it (nil
// otherwise), with q prepared on it unless the cap on kept statements is
// reached or q does not prepare (the unprepared run reports the error).
func (r *readers) pinnedConn(ctx context.Context, q string) (*sql.Conn, *sql.Stmt) {
	db := r.db
	if db == nil || !db.pinned(ctx) {
		return nil, nil
	}
	// db.wmu is held by the pin.
	if _, kept := db.stmts[q]; !kept && len(db.stmts) >= writerStmtCap {
		return db.wconn, nil
	}
	st, err := db.preparedLocked(ctx, q)
	if err != nil {
		return db.wconn, nil
	}
	return db.wconn, st
}

// writerStmtCap bounds the statements kept prepared on the writer: its
// own few dozen and the read shapes pinned runs ask for.
const writerStmtCap = 2 * readStmtCap
