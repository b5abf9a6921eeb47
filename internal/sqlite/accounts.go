package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// CreateAccount adds a tenant. Names are unique.
func (db *DB) CreateAccount(ctx context.Context, name string) (memory.Account, error) {
	a := memory.Account{Name: name}
	err := db.Update(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO accounts (name, created_at) VALUES (?, ?)`, name, millis(tx.Now))
		if err != nil {
			if strings.Contains(err.Error(), "UNIQUE") {
				return memory.Errorf(memory.CodeConflict, "an account named %q already exists", name)
			}
			return err
		}
		id, err := res.LastInsertId()
		a.ID = memory.AccountID(id)
		return err
	})
	return a, wrapChange("create account", err)
}

// Accounts lists every tenant, oldest first.
func (db *DB) Accounts(ctx context.Context) ([]memory.Account, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, name FROM accounts ORDER BY id`)
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "list accounts", err)
	}
	defer rows.Close()
	var out []memory.Account
	for rows.Next() {
		var a memory.Account
		if err := rows.Scan(&a.ID, &a.Name); err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "list accounts", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// AccountByName finds a tenant by name.
func (db *DB) AccountByName(ctx context.Context, name string) (memory.Account, error) {
	a := memory.Account{Name: name}
	err := db.read.QueryRowContext(ctx, `SELECT id FROM accounts WHERE name = ?`, name).Scan(&a.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return a, memory.Errorf(memory.CodeNotFound, "no account named %q: create it with `cairn account create %s`", name, name)
	}
	if err != nil {
		return a, memory.Wrap(memory.CodeInternal, "read account", err)
	}
	return a, nil
}

// CreateToken stores a token's hash for an account.
func (db *DB) CreateToken(ctx context.Context, t memory.Token, hash []byte) (memory.Token, error) {
	err := db.Update(ctx, func(tx *Tx) error {
		t.CreatedAt = tx.Now
		res, err := tx.ExecContext(ctx, `INSERT INTO tokens (account_id, name, hash, hint, operator, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			int64(t.Account), t.Name, hash, t.Hint, boolInt(t.Operator), millis(tx.Now))
		if err != nil {
			return err
		}
		t.ID, err = res.LastInsertId()
		return err
	})
	t.CreatedAt = fromMillis(millis(t.CreatedAt))
	return t, wrapChange("create token", err)
}

const tokenCols = `id, account_id, name, hint, operator, created_at, revoked_at`

func scanToken(sc interface{ Scan(...any) error }, extra ...any) (memory.Token, error) {
	var t memory.Token
	var op int
	var created, revoked int64
	err := sc.Scan(append([]any{&t.ID, &t.Account, &t.Name, &t.Hint, &op, &created, &revoked}, extra...)...)
	t.Operator, t.CreatedAt, t.RevokedAt = op != 0, fromMillis(created), fromMillis(revoked)
	return t, err
}

// Tokens lists an account's tokens, revoked ones included.
func (db *DB) Tokens(ctx context.Context, acct memory.AccountID) ([]memory.Token, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE account_id = ? ORDER BY id`, int64(acct))
	if err != nil {
		return nil, memory.Wrap(memory.CodeInternal, "list tokens", err)
	}
	defer rows.Close()
	var out []memory.Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, memory.Wrap(memory.CodeInternal, "list tokens", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeToken stops a token at once; revoking it again changes nothing.
func (db *DB) RevokeToken(ctx context.Context, acct memory.AccountID, id int64) (memory.Token, error) {
	var t memory.Token
	err := db.Update(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at = 0`,
			millis(tx.Now), int64(acct), id); err != nil {
			return err
		}
		var err error
		t, err = scanToken(tx.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE account_id = ? AND id = ?`, int64(acct), id))
		if errors.Is(err, sql.ErrNoRows) {
			return memory.Errorf(memory.CodeNotFound, "the account has no token %d: see `cairn token list`", id)
		}
		return err
	})
	return t, wrapChange("revoke token", err)
}

// TokenByHash finds the token with this hash and returns the stored hash
// too, so the caller compares the two in constant time.
func (db *DB) TokenByHash(ctx context.Context, hash []byte) (memory.Token, []byte, error) {
	var stored []byte
	t, err := scanToken(db.read.QueryRowContext(ctx, `SELECT `+tokenCols+`, hash FROM tokens WHERE hash = ?`, hash), &stored)
	if errors.Is(err, sql.ErrNoRows) {
		return t, nil, memory.Errorf(memory.CodeUnauthorized, "unknown token")
	}
	if err != nil {
		return t, nil, memory.Wrap(memory.CodeInternal, "read token", err)
	}
	return t, stored, nil
}
