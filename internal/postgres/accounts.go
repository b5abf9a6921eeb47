package postgres

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// CreateAccount adds a tenant. Names are unique. The application role
// cannot write accounts, so this runs as the owner (UseOwner).
func (db *DB) CreateAccount(ctx context.Context, name string) (memory.Account, error) {
	a := memory.Account{Name: cleanText(name)}
	err := db.admin().QueryRow(ctx, `INSERT INTO accounts (name, created_at) VALUES ($1, $2) RETURNING id`,
		a.Name, millis(db.Now().UTC())).Scan(&a.ID)
	switch sqlState(err) {
	case "":
	case stateUniqueViolation:
		return a, memory.Errorf(memory.CodeConflict, "an account named %q already exists", name)
	case stateInsufficientRights:
		return a, needOwner("creating an account")
	}
	return a, wrap("create account", err)
}

// Accounts lists every tenant, oldest first. Names and ids are not
// memory: the application role reads them without an account setting.
func (db *DB) Accounts(ctx context.Context) ([]memory.Account, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, name FROM accounts ORDER BY id`)
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
	return out, wrap("list accounts", rows.Err())
}

// AccountByName finds a tenant by name.
func (db *DB) AccountByName(ctx context.Context, name string) (memory.Account, error) {
	a := memory.Account{Name: name}
	err := db.pool.QueryRow(ctx, `SELECT id FROM accounts WHERE name = $1`, cleanText(name)).Scan(&a.ID)
	if noRows(err) {
		return a, memory.Errorf(memory.CodeNotFound, "no account named %q: create it with `cairn account create %s`", name, name)
	}
	return a, wrap("read account", err)
}

// CreateToken stores a token's hash for an account, under that account's
// row-level security.
func (db *DB) CreateToken(ctx context.Context, t memory.Token, hash []byte) (memory.Token, error) {
	err := db.update(ctx, t.Account, func(tx *Tx) error {
		t.CreatedAt = fromMillis(millis(tx.Now))
		return tx.row(ctx, `INSERT INTO tokens (account_id, name, hash, hint, operator, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
			int64(t.Account), t.Name, hash, t.Hint, boolInt(t.Operator), millis(tx.Now)).Scan(&t.ID)
	})
	if sqlState(err) == stateUniqueViolation {
		return t, memory.Errorf(memory.CodeConflict, "a token with this hash already exists")
	}
	return t, wrap("create token", err)
}

const tokenCols = `id, account_id, name, hint, operator, created_at, revoked_at`

func scanToken(sc interface{ Scan(...any) error }, extra ...any) (memory.Token, error) {
	var t memory.Token
	var op, created, revoked int64
	err := sc.Scan(append([]any{&t.ID, &t.Account, &t.Name, &t.Hint, &op, &created, &revoked}, extra...)...)
	t.Operator, t.CreatedAt, t.RevokedAt = op != 0, fromMillis(created), fromMillis(revoked)
	return t, err
}

// Tokens lists an account's tokens, revoked ones included.
func (db *DB) Tokens(ctx context.Context, acct memory.AccountID) ([]memory.Token, error) {
	var out []memory.Token
	err := db.view(ctx, acct, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT `+tokenCols+` FROM tokens WHERE account_id = ? ORDER BY id`, int64(acct))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanToken(rows)
			if err != nil {
				return err
			}
			out = append(out, t)
		}
		return rows.Err()
	})
	return out, wrap("list tokens", err)
}

// RevokeToken stops a token at once; revoking it again changes nothing.
func (db *DB) RevokeToken(ctx context.Context, acct memory.AccountID, id int64) (memory.Token, error) {
	var t memory.Token
	err := db.update(ctx, acct, func(tx *Tx) error {
		if _, err := tx.exec(ctx, `UPDATE tokens SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at = 0`,
			millis(tx.Now), int64(acct), id); err != nil {
			return err
		}
		var err error
		t, err = scanToken(tx.row(ctx, `SELECT `+tokenCols+` FROM tokens WHERE account_id = ? AND id = ?`, int64(acct), id))
		if noRows(err) {
			return memory.Errorf(memory.CodeNotFound, "the account has no token %d: see `cairn token list`", id)
		}
		return err
	})
	return t, wrap("revoke token", err)
}

// TokenByHash finds the token with this hash and returns the stored hash
// too, so the caller compares the two in constant time. The account is
// not known yet: cairn_token_account (run as the owner) maps an exact
// hash to its account id and nothing else, and the row is then read under
// that account's row-level security like any other.
func (db *DB) TokenByHash(ctx context.Context, hash []byte) (memory.Token, []byte, error) {
	var acct *int64
	if err := db.pool.QueryRow(ctx, `SELECT cairn_token_account($1)`, hash).Scan(&acct); err != nil {
		return memory.Token{}, nil, memory.Wrap(memory.CodeInternal, "read token", err)
	}
	if acct == nil {
		return memory.Token{}, nil, memory.Errorf(memory.CodeUnauthorized, "unknown token")
	}
	var t memory.Token
	var stored []byte
	err := db.view(ctx, memory.AccountID(*acct), func(tx *Tx) error {
		var err error
		t, err = scanToken(tx.row(ctx, `SELECT `+tokenCols+`, hash FROM tokens WHERE account_id = ? AND hash = ?`, *acct, hash), &stored)
		if noRows(err) {
			// Revoked and deleted between the two reads: no token.
			return memory.Errorf(memory.CodeUnauthorized, "unknown token")
		}
		return err
	})
	if err != nil {
		return memory.Token{}, nil, wrap("read token", err)
	}
	return t, stored, nil
}
