package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// busyTimeout is how long a writer waits for another process's write
// transaction before giving up. Imports keep transactions short, so a
// waiter rarely waits long; hooks mostly read and never wait on writers.
const busyTimeout = 15 * time.Second

// DB is an open store.
type DB struct {
	path  string
	write *sql.DB
	read  *readers
	// wmu serializes writes on wconn, the writer pool's one connection,
	// held from the first write to Close. A write transaction is BEGIN
	// IMMEDIATE and COMMIT run on it as statements: database/sql's own
	// Tx starts a goroutine per transaction and per result set to watch
	// its context, which cost a write about a third of its time
	// (BENCHMARKS.md, Statements).
	wmu   sync.Mutex
	wconn *sql.Conn
	// stmts caches statements prepared on wconn: modernc parses SQL on
	// every prepare, and the write point runs the same few statements
	// thousands of times. Guarded by wmu.
	stmts map[string]*sql.Stmt
	// ckpt copies the WAL back on its own goroutine (checkpoint.go).
	ckpt checkpointer
	// dfs keeps term counts between searches (dfcache.go).
	dfs dfCache
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// Open opens (creating if needed) the store at path and migrates it to the
// newest schema. A store whose schema is newer than this binary is refused.
func Open(ctx context.Context, path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, memory.Wrap(memory.CodeInvalid, "create data dir", err)
	}
	_, statErr := os.Stat(path)
	db, err := openPools(path, statErr == nil)
	if err != nil {
		return nil, err
	}
	// A store already at this binary's schema is opened with one read
	// connection: the writer connects on the first write, so a process
	// that only reads (a hook answering a prompt) parses the schema once.
	if v, err := db.readVersion(ctx); err != nil || v != SchemaVersion() {
		if err := db.migrate(ctx, len(migrations())); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := db.indexBacklog(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// openPools opens the writer and reader pools without migrating.
func openPools(path string, exists bool) (*DB, error) {
	if err := registerWALVFS(); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "open store", err)
	}
	if err := registerRank(); err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "open store", err)
	}
	pragmas := fmt.Sprintf("vfs="+walVFS+"&_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)", busyTimeout.Milliseconds())
	// WAL with synchronous=NORMAL: a commit is durable once in the WAL,
	// which survives an application crash; only an OS crash or power loss
	// can take the last commits back, never the store's integrity. The
	// WAL is copied back into the store every 4,000 pages (16 MiB) rather
	// than SQLite's 1,000: a checkpoint syncs twice whatever its size, and
	// the pages every commit touches are copied once per checkpoint.
	write, err := sql.Open("sqlite", dsn(path, pragmas+"&_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(4000)&_txlock=immediate"+
		fmt.Sprintf("&_pragma=cache_size(-%d)&_pragma=mmap_size(%d)", writerCacheKiB, writerMapBytes)))
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "open store", err)
	}
	// Writes run on one connection, held by the DB (wconn); a second may
	// serve a direct use of the pool outside Update, which then waits on
	// SQLite's write lock like another process would.
	write.SetMaxOpenConns(2)
	write.SetConnMaxIdleTime(0)
	// A new store's writer connects first, so WAL mode is in place before
	// readers open.
	if !exists {
		if err := write.Ping(); err != nil {
			write.Close()
			return nil, memory.Wrap(memory.CodeInternal, "open store "+path, err)
		}
	}
	// Readers, unlike the writer (writerMapBytes), neither map the file
	// nor keep a large page cache. In WAL mode any commit (a receipt, a
	// capture) makes every other connection drop its whole cache, and
	// unmap the file if mapped, at its next read. A mapped reader then
	// pays a page fault for every page it touches again, and freeing a
	// large cache costs a madvise per 64 KiB in modernc's allocator: a
	// resident process's request block ran 2–3× slower mapped with 32 MiB
	// than unmapped with 1 MiB (BENCHMARKS.md, recall block), while a
	// search without writes in between was ~20% faster mapped.
	read, err := sql.Open("sqlite", dsn(path, pragmas+"&_pragma=query_only(1)&_pragma=cache_size(-1024)"))
	if err != nil {
		write.Close()
		return nil, memory.Wrap(memory.CodeInternal, "open store", err)
	}
	read.SetMaxOpenConns(4)
	db := &DB{path: path, write: write, read: newReaders(read), Now: time.Now}
	db.read.db = db
	return db, nil
}

func dsn(path, params string) string {
	u := url.URL{Scheme: "file", Path: path, RawQuery: params}
	return u.String()
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

// Close closes both pools.
func (db *DB) Close() error {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	db.stopCheckpoints()
	var errs []error
	for _, st := range db.stmts {
		st.Close()
	}
	db.stmts = nil
	if db.wconn != nil {
		errs = append(errs, db.wconn.Close())
		db.wconn = nil
	}
	errs = append(errs, db.read.Close(), db.write.Close())
	return errors.Join(errs...)
}

// writerLocked returns the writer connection, connecting on first use.
func (db *DB) writerLocked(ctx context.Context) (*sql.Conn, error) {
	if db.wconn != nil {
		return db.wconn, nil
	}
	c, err := db.write.Conn(ctx)
	if err != nil {
		return nil, err
	}
	db.wconn = c
	return c, nil
}

// preparedLocked returns q prepared once on the writer connection.
func (db *DB) preparedLocked(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := db.stmts[q]; ok {
		return st, nil
	}
	c, err := db.writerLocked(ctx)
	if err != nil {
		return nil, err
	}
	st, err := c.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if db.stmts == nil {
		db.stmts = map[string]*sql.Stmt{}
	}
	db.stmts[q] = st
	return st, nil
}

// execWrite runs one statement on the writer outside any transaction.
func (db *DB) execWrite(ctx context.Context, q string, args ...any) (sql.Result, error) {
	defer db.lockWriter(ctx)()
	c, err := db.writerLocked(ctx)
	if err != nil {
		return nil, err
	}
	return c.ExecContext(ctx, q, args...)
}

// Tx is a write transaction with its moment fixed once, so every row it
// writes agrees on "now". Its methods run on the writer connection
// inside the transaction.
type Tx struct {
	*sql.Conn
	Now time.Time
	db  *DB
}

// Exec runs q in the transaction.
func (tx *Tx) Exec(q string, args ...any) (sql.Result, error) {
	return tx.ExecContext(context.Background(), q, args...)
}

// stmtCtx is the context one statement inside a write transaction runs
// with: ctx's values without its cancellation, unless ctx has already
// ended (then the statement fails at once with ctx's error). Given a
// context that can be cancelled, the driver starts a goroutine per
// statement (and sets a progress handler) and database/sql one per result
// set to watch it: 3–5 % of the CPU of `cairn import`, whose context ends
// on Ctrl-C (BENCHMARKS.md, Import). The transaction holds the write lock,
// so no statement in it waits on a lock, and a cancellation still ends it
// at the next statement.
func stmtCtx(ctx context.Context) context.Context {
	if ctx.Done() == nil || ctx.Err() != nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// ExecContext runs q in the transaction.
func (tx *Tx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return tx.Conn.ExecContext(stmtCtx(ctx), q, args...)
}

// QueryContext runs q in the transaction.
func (tx *Tx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return tx.Conn.QueryContext(stmtCtx(ctx), q, args...)
}

// QueryRowContext runs q in the transaction.
func (tx *Tx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return tx.Conn.QueryRowContext(stmtCtx(ctx), q, args...)
}

// stmt returns q prepared once on the writer.
func (tx *Tx) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	return tx.db.preparedLocked(stmtCtx(ctx), q)
}

// exec runs a cached statement in the transaction.
func (tx *Tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	st, err := tx.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(stmtCtx(ctx), args...)
}

// query runs a cached query in the transaction.
func (tx *Tx) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := tx.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(stmtCtx(ctx), args...)
}

// Update runs fn in one IMMEDIATE write transaction, committing when fn
// returns nil.
func (db *DB) Update(ctx context.Context, fn func(*Tx) error) (err error) {
	defer db.lockWriter(ctx)()
	c, err := db.writerLocked(ctx)
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "begin write", err)
	}
	begin, err := db.preparedLocked(ctx, `BEGIN IMMEDIATE`)
	if err == nil {
		_, err = begin.ExecContext(ctx)
	}
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "begin write", err)
	}
	done := false
	defer func() {
		if !done {
			// fn failed or panicked, or COMMIT did not end the
			// transaction (SQLite keeps it open after a busy COMMIT).
			// The rollback must run even when ctx is cancelled.
			_, _ = c.ExecContext(context.Background(), `ROLLBACK`)
		}
	}()
	if err := fn(&Tx{Conn: c, Now: db.Now().UTC(), db: db}); err != nil {
		return err
	}
	// A COMMIT, once started, is not interrupted.
	commit, err := db.preparedLocked(stmtCtx(ctx), `COMMIT`)
	if err == nil {
		_, err = commit.ExecContext(stmtCtx(ctx))
	}
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "commit", err)
	}
	done = true
	db.committed()
	return nil
}

// View runs fn in a read transaction on the read pool, which sees one
// consistent snapshot.
func (db *DB) View(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "begin read", err)
	}
	defer tx.Rollback()
	return fn(tx)
}

// millis stores times as Unix milliseconds; zero time is stored as 0.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMillis is the inverse of millis.
func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
