package memory

import "time"

// Token is an API token of a team gateway, as stored: never the secret,
// only what identifies it to a person (its name and first characters).
type Token struct {
	ID      int64     `json:"id"`
	Account AccountID `json:"account"`
	Name    string    `json:"name"`
	// Hint is the token's first characters ("cairn_ab12"), enough to tell
	// two tokens apart in a list without revealing either.
	Hint string `json:"hint"`
	// Operator tokens may also purge; agents' tokens may not.
	Operator  bool      `json:"operator,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	RevokedAt time.Time `json:"revoked_at,omitzero"`
}

// Revoked says whether the token no longer opens anything.
func (t Token) Revoked() bool { return !t.RevokedAt.IsZero() }
