package gateway

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"regexp"
	"strings"
	"sync"

	"github.com/cairn-memory/cairn/internal/memory"
)

// TokenPrefix starts every token, so a secret scanner (and a person)
// recognizes one in a log or a commit.
const TokenPrefix = "cairn_"

// tokenBytes of randomness: 256 bits, so a hash lookup needs no salt and
// no slow hash, and guessing is hopeless.
const tokenBytes = 32

var tokenEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// hintLen is how much of a token a list shows: the prefix and four
// characters of the secret.
const hintLen = len(TokenPrefix) + 4

// newSecret makes a token: the prefix and 256 random bits in lowercase
// base32.
func newSecret() string {
	b := make([]byte, tokenBytes)
	_, _ = rand.Read(b) // crypto/rand never fails on supported systems
	return TokenPrefix + strings.ToLower(tokenEncoding.EncodeToString(b))
}

// HashToken is what the store keeps of a token.
func HashToken(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// accountName is compiled on first use: its bounded repeat makes a large
// program, and package init runs at every cairn process start.
var accountName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`) })

// Accounts manages tenants and tokens over an AccountStore.
type Accounts struct {
	Store AccountStore
}

// Create adds an account.
func (a Accounts) Create(ctx context.Context, name string) (memory.Account, error) {
	if !accountName().MatchString(name) {
		return memory.Account{}, memory.Errorf(memory.CodeInvalid,
			"account name %q: use 1 to 63 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return a.Store.CreateAccount(ctx, name)
}

// Issue makes a token for the named account and returns its secret, which
// is shown once and never stored.
func (a Accounts) Issue(ctx context.Context, account, name string, operator bool) (string, memory.Token, error) {
	acct, err := a.Store.AccountByName(ctx, account)
	if err != nil {
		return "", memory.Token{}, err
	}
	secret := newSecret()
	t, err := a.Store.CreateToken(ctx, memory.Token{Account: acct.ID, Name: name, Hint: secret[:hintLen], Operator: operator}, HashToken(secret))
	return secret, t, err
}

// Tokens lists the named account's tokens.
func (a Accounts) Tokens(ctx context.Context, account string) ([]memory.Token, error) {
	acct, err := a.Store.AccountByName(ctx, account)
	if err != nil {
		return nil, err
	}
	return a.Store.Tokens(ctx, acct.ID)
}

// Revoke stops one of the named account's tokens.
func (a Accounts) Revoke(ctx context.Context, account string, id int64) (memory.Token, error) {
	acct, err := a.Store.AccountByName(ctx, account)
	if err != nil {
		return memory.Token{}, err
	}
	return a.Store.RevokeToken(ctx, acct.ID, id)
}

// errUnauthorized is the one answer to every bad token, so a caller
// learns nothing about which part was wrong.
var errUnauthorized = memory.Errorf(memory.CodeUnauthorized, "a valid token is required: send Authorization: Bearer cairn_…")

// Authenticate returns the live token a secret names. The store is read
// on every call, so a revocation takes effect at the next request.
func (a Accounts) Authenticate(ctx context.Context, secret string) (memory.Token, error) {
	if !strings.HasPrefix(secret, TokenPrefix) || len(secret) > 200 {
		return memory.Token{}, errUnauthorized
	}
	h := HashToken(secret)
	t, stored, err := a.Store.TokenByHash(ctx, h)
	if err != nil {
		if memory.IsCode(err, memory.CodeUnauthorized) || memory.IsCode(err, memory.CodeNotFound) {
			return memory.Token{}, errUnauthorized
		}
		return memory.Token{}, err
	}
	// The lookup found the row by its hash; comparing again in constant
	// time keeps a store whose index compares early-out from leaking how
	// much of a guess matched.
	if subtle.ConstantTimeCompare(h, stored) != 1 || t.Revoked() {
		return memory.Token{}, errUnauthorized
	}
	return t, nil
}
