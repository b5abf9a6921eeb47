package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is an open store.
type DB struct {
	pool *pgxpool.Pool
	dsn  string
	// owner, when set (UseOwner), is a small pool connected as the role
	// that owns the schema, for what the application role may not do:
	// create accounts and compact tables after a purge.
	owner *pgxpool.Pool
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// Open connects to the database at dsn as the application role. The
// schema must be migrated (Migrate, as the owner) to this binary's
// version: an older one is refused with a message saying so, a newer one
// too.
func Open(ctx context.Context, dsn string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInvalid, "read the PostgreSQL address", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, memory.Wrap(memory.CodeUnavailable, "connect to PostgreSQL", err)
	}
	db := &DB{pool: pool, dsn: redactDSN(dsn), Now: time.Now}
	v, err := db.Version(ctx)
	if err != nil {
		pool.Close()
		return nil, err
	}
	if v != SchemaVersion() {
		pool.Close()
		return nil, memory.Errorf(memory.CodeConflict,
			"the PostgreSQL store has schema version %d and this cairn needs %d: run the migrations as the owner role (cairn's postgres.Migrate)",
			v, SchemaVersion())
	}
	return db, nil
}

// redactDSN drops a password from a DSN kept for messages.
func redactDSN(dsn string) string {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return "postgres"
	}
	return "postgres://" + cfg.User + "@" + cfg.Host + ":" + strconv.Itoa(int(cfg.Port)) + "/" + cfg.Database
}

// Close closes the pool.
func (db *DB) Close() error {
	db.pool.Close()
	if db.owner != nil {
		db.owner.Close()
	}
	return nil
}

// Tx is one transaction for one account, with its moment fixed once.
type Tx struct {
	tx   pgx.Tx
	Now  time.Time
	acct memory.AccountID
}

// run runs fn in a transaction whose cairn.account setting is acct, local
// to the transaction: row-level security admits that account's rows only,
// and the setting ends with the transaction, so the pooled connection
// carries nothing into the next one.
func (db *DB) run(ctx context.Context, acct memory.AccountID, write bool, fn func(*Tx) error) error {
	mode := pgx.ReadOnly
	if write {
		mode = pgx.ReadWrite
	}
	tx, err := db.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: mode})
	if err != nil {
		return memory.Wrap(memory.CodeUnavailable, "begin a PostgreSQL transaction", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT set_config('cairn.account', $1, true)`, strconv.FormatInt(int64(acct), 10)); err != nil {
		return err
	}
	t := &Tx{tx: tx, Now: db.Now().UTC(), acct: acct}
	if err := fn(t); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// update runs a write transaction for acct.
func (db *DB) update(ctx context.Context, acct memory.AccountID, fn func(*Tx) error) error {
	return db.run(ctx, acct, true, fn)
}

// view runs a read-only transaction for acct.
func (db *DB) view(ctx context.Context, acct memory.AccountID, fn func(*Tx) error) error {
	return db.run(ctx, acct, false, fn)
}

// The SQL of this package is written with ? placeholders, as the SQLite
// store's is; pg rewrites them to $1, $2 … once per query text.
var (
	rewriteMu sync.Mutex
	rewritten = map[string]string{}
)

func pg(q string) string {
	rewriteMu.Lock()
	defer rewriteMu.Unlock()
	if r, ok := rewritten[q]; ok {
		return r
	}
	var b strings.Builder
	n := 0
	inStr := false
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'':
			inStr = !inStr
		case c == '?' && !inStr:
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	r := b.String()
	if len(rewritten) < 4096 {
		rewritten[q] = r
	}
	return r
}

// textArgs makes string arguments storable: PostgreSQL's text holds
// neither NUL nor invalid UTF-8, which SQLite keeps as given; both become
// U+FFFD here (docs/postgres.md), so a write never fails on them.
func textArgs(args []any) []any {
	for i, a := range args {
		switch v := a.(type) {
		case string:
			args[i] = cleanText(v)
		case []string:
			c := make([]string, len(v))
			for j, s := range v {
				c[j] = cleanText(s)
			}
			args[i] = c
		}
	}
	return args
}

func cleanText(s string) string {
	if strings.IndexByte(s, 0) < 0 && utf8.ValidString(s) {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

func (tx *Tx) exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := tx.tx.Exec(ctx, pg(q), textArgs(args)...)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

func (tx *Tx) query(ctx context.Context, q string, args ...any) (pgx.Rows, error) {
	return tx.tx.Query(ctx, pg(q), textArgs(args)...)
}

func (tx *Tx) row(ctx context.Context, q string, args ...any) pgx.Row {
	return tx.tx.QueryRow(ctx, pg(q), textArgs(args)...)
}

// noRows reports a query that found nothing.
func noRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// millis stores times as Unix milliseconds; zero time is stored as 0.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// wrap keeps coded errors (not found, conflict) and wraps the rest.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var me *memory.Error
	if errors.As(err, &me) {
		return err
	}
	return memory.Wrap(memory.CodeInternal, op, err)
}
