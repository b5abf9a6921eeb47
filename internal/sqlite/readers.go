package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// readStmtCap bounds the read statements kept prepared. The store's reads
// are a few dozen SQL texts (search builds a handful of shapes per layer);
// past the cap a new text is run unprepared rather than evicting one that
// another goroutine may be reading through.
const readStmtCap = 256

// readers is the read pool with its statements prepared once per
// connection: modernc parses SQL on every prepare, which was 8% of a
// search's CPU when every query prepared afresh.
type readers struct {
	*sql.DB
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
	// db routes a pinned context's reads to its writer (warmreads.go).
	db *DB
}

func newReaders(db *sql.DB) *readers {
	return &readers{DB: db, stmts: make(map[string]*sql.Stmt)}
}

// stmt returns q prepared, or nil when the cache is full or q does not
// prepare (the caller then runs it unprepared and gets the error there).
func (r *readers) stmt(ctx context.Context, q string) *sql.Stmt {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st, ok := r.stmts[q]; ok {
		return st
	}
	if r.stmts == nil || len(r.stmts) >= readStmtCap {
		return nil
	}
	st, err := r.DB.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	r.stmts[q] = st
	return st
}

func (r *readers) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if c, st := r.pinnedConn(ctx, q); st != nil {
		return st.QueryContext(stmtCtx(ctx), args...)
	} else if c != nil {
		return c.QueryContext(stmtCtx(ctx), q, args...)
	}
	if st := r.stmt(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return r.DB.QueryContext(ctx, q, args...)
}

func (r *readers) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if c, st := r.pinnedConn(ctx, q); st != nil {
		return st.QueryRowContext(stmtCtx(ctx), args...)
	} else if c != nil {
		return c.QueryRowContext(stmtCtx(ctx), q, args...)
	}
	if st := r.stmt(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return r.DB.QueryRowContext(ctx, q, args...)
}

// Close closes the prepared statements, then the pool.
func (r *readers) Close() error {
	r.mu.Lock()
	var errs []error
	for _, st := range r.stmts {
		errs = append(errs, st.Close())
	}
	r.stmts = nil
	r.mu.Unlock()
	return errors.Join(append(errs, r.DB.Close())...)
}
