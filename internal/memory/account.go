package memory

// AccountID identifies the tenant a row belongs to. Every table that holds
// memory carries one; a local store has exactly one account.
type AccountID int64

// LocalAccount is the account of a single-user store, created by the first
// migration.
const LocalAccount AccountID = 1

// Account is one tenant of a store.
type Account struct {
	ID   AccountID `json:"id"`
	Name string    `json:"name"`
}
