package postgres

import (
	"context"
	"errors"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// UseOwner connects a second, small pool as the schema's owner (ownerDSN),
// used only for what the application role is not allowed: creating
// accounts and compacting tables after a purge. Every memory query still
// goes through the application role and row-level security.
func (db *DB) UseOwner(ctx context.Context, ownerDSN string) error {
	cfg, err := pgxpool.ParseConfig(ownerDSN)
	if err != nil {
		return memory.Wrap(memory.CodeInvalid, "read the PostgreSQL owner's address", err)
	}
	cfg.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return memory.Wrap(memory.CodeUnavailable, "connect to PostgreSQL as the owner", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return memory.Wrap(memory.CodeUnavailable, "connect to PostgreSQL as the owner", err)
	}
	if db.owner != nil {
		db.owner.Close()
	}
	db.owner = pool
	return nil
}

// admin is the pool for the owner's work: the owner's when UseOwner was
// called, else the store's own (which works when it is the owner).
func (db *DB) admin() *pgxpool.Pool {
	if db.owner != nil {
		return db.owner
	}
	return db.pool
}

// needOwner is the answer when the store's role lacks the owner's rights.
func needOwner(what string) error {
	return memory.Errorf(memory.CodeUnavailable,
		"%s needs the PostgreSQL role that owns cairn's tables: set CAIRN_POSTGRES_OWNER to the owner's DSN (docs/postgres.md)", what)
}

// sqlState is the SQLSTATE of a PostgreSQL error, or "".
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

const (
	stateUniqueViolation    = "23505"
	stateInsufficientRights = "42501"
)

// ownsTables reports whether the admin pool's role may vacuum the tables
// (VACUUM by anyone else skips them with a warning, not an error).
func (db *DB) ownsTables(ctx context.Context, tables []string) (bool, error) {
	var ok bool
	err := db.admin().QueryRow(ctx, `SELECT COALESCE(bool_and(pg_has_role(current_user, c.relowner, 'USAGE')), false)
		FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY($1)`, tables).Scan(&ok)
	return ok, err
}

// OpenAs opens the store for a server: when ownerDSN is given it first
// migrates the schema as the owner (granting appDSN's role) and keeps an
// owner pool (UseOwner); then it connects as appDSN's role, which must be
// bound by row-level security: a superuser or BYPASSRLS role is refused,
// since it would see every account's rows.
func OpenAs(ctx context.Context, appDSN, ownerDSN string) (*DB, error) {
	cfg, err := pgconn.ParseConfig(appDSN)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInvalid, "read the PostgreSQL address", err)
	}
	if ownerDSN != "" {
		if err := Migrate(ctx, ownerDSN, cfg.User); err != nil {
			return nil, err
		}
	}
	db, err := Open(ctx, appDSN)
	if err != nil {
		return nil, err
	}
	var bypass bool
	if err := db.pool.QueryRow(ctx, `SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user`).Scan(&bypass); err != nil {
		db.Close()
		return nil, memory.Wrap(memory.CodeUnavailable, "read the PostgreSQL role", err)
	}
	if bypass {
		db.Close()
		return nil, memory.Errorf(memory.CodeInvalid,
			"the PostgreSQL role %q is a superuser or BYPASSRLS, so row-level security would not bind it: give --db the application role's DSN and the owner's in CAIRN_POSTGRES_OWNER (docs/postgres.md)", cfg.User)
	}
	if ownerDSN != "" {
		if err := db.UseOwner(ctx, ownerDSN); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}
