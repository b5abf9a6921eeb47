package gateway

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// AccountStore keeps the gateway's tenants and their API tokens. Tokens
// are stored only as hashes; a store never sees a token itself.
type AccountStore interface {
	CreateAccount(ctx context.Context, name string) (memory.Account, error)
	Accounts(ctx context.Context) ([]memory.Account, error)
	// AccountByName fails with not_found when there is no such account.
	AccountByName(ctx context.Context, name string) (memory.Account, error)
	// CreateToken stores t (its Account, Name, Hint and Operator) with the
	// token's hash and returns it with its ID and CreatedAt.
	CreateToken(ctx context.Context, t memory.Token, hash []byte) (memory.Token, error)
	// Tokens lists an account's tokens, revoked ones included.
	Tokens(ctx context.Context, acct memory.AccountID) ([]memory.Token, error)
	// RevokeToken stops a token of this account; not_found when the
	// account has no such token.
	RevokeToken(ctx context.Context, acct memory.AccountID, id int64) (memory.Token, error)
	// TokenByHash returns the token stored under hash and the stored hash;
	// unauthorized when there is none.
	TokenByHash(ctx context.Context, hash []byte) (memory.Token, []byte, error)
}
