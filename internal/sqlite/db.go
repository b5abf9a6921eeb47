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
	read  *sql.DB
	// stmts caches statements prepared on the single writer connection:
	// modernc parses SQL on every prepare, and the write point runs the
	// same few statements thousands of times.
	stmtMu sync.Mutex
	stmts  map[string]*sql.Stmt
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
	pragmas := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)", busyTimeout.Milliseconds())
	write, err := sql.Open("sqlite", dsn(path, pragmas+"&_pragma=journal_mode(WAL)&_txlock=immediate"))
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "open store", err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	// A new store's writer connects first, so WAL mode is in place before
	// readers open.
	if !exists {
		if err := write.Ping(); err != nil {
			write.Close()
			return nil, memory.Wrap(memory.CodeInternal, "open store "+path, err)
		}
	}
	read, err := sql.Open("sqlite", dsn(path, pragmas+"&_pragma=query_only(1)"))
	if err != nil {
		write.Close()
		return nil, memory.Wrap(memory.CodeInternal, "open store", err)
	}
	read.SetMaxOpenConns(4)
	return &DB{path: path, write: write, read: read, Now: time.Now}, nil
}

func dsn(path, params string) string {
	u := url.URL{Scheme: "file", Path: path, RawQuery: params}
	return u.String()
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

// Close closes both pools.
func (db *DB) Close() error {
	db.stmtMu.Lock()
	for _, st := range db.stmts {
		st.Close()
	}
	db.stmts = nil
	db.stmtMu.Unlock()
	return errors.Join(db.read.Close(), db.write.Close())
}

// Tx is a write transaction with its moment fixed once, so every row it
// writes agrees on "now".
type Tx struct {
	*sql.Tx
	Now   time.Time
	db    *DB
	local map[string]*sql.Stmt
}

// stmt returns q bound to this transaction: the copy prepared once on
// the writer when there is one, else prepared now for this transaction
// only and noted, to be prepared on the writer once the transaction ends
// (while a transaction holds the single writer connection, nothing else
// can be prepared on it).
func (tx *Tx) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	db := tx.db
	db.stmtMu.Lock()
	st, ok := db.stmts[q]
	db.stmtMu.Unlock()
	if ok {
		return tx.StmtContext(ctx, st), nil
	}
	if tx.local == nil {
		tx.local = map[string]*sql.Stmt{}
	}
	if st, ok := tx.local[q]; ok {
		return st, nil
	}
	st, err := tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	tx.local[q] = st
	return st, nil
}

// prepareLater prepares on the writer the statements a finished
// transaction had to prepare for itself.
func (db *DB) prepareLater(ctx context.Context, qs map[string]*sql.Stmt) {
	for q := range qs {
		st, err := db.write.PrepareContext(ctx, q)
		if err != nil {
			continue // the next transaction prepares it for itself again
		}
		db.stmtMu.Lock()
		if db.stmts == nil {
			db.stmts = map[string]*sql.Stmt{}
		}
		if _, dup := db.stmts[q]; dup {
			st.Close()
		} else {
			db.stmts[q] = st
		}
		db.stmtMu.Unlock()
	}
}

// exec runs a cached statement in the transaction.
func (tx *Tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	st, err := tx.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// query runs a cached query in the transaction.
func (tx *Tx) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := tx.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// Update runs fn in one IMMEDIATE write transaction, committing when fn
// returns nil.
func (db *DB) Update(ctx context.Context, fn func(*Tx) error) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "begin write", err)
	}
	t := &Tx{Tx: tx, Now: db.Now().UTC(), db: db}
	if err := fn(t); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return memory.Wrap(memory.CodeInternal, "commit", err)
	}
	if len(t.local) > 0 {
		db.prepareLater(ctx, t.local)
	}
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
