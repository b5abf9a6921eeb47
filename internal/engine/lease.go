package engine

import (
	"context"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// LeaseStore keeps named leases: one consolidation in flight across every
// cairn process sharing a store.
type LeaseStore interface {
	AcquireLease(ctx context.Context, acct memory.AccountID, name, owner string, until time.Time) (bool, error)
	RenewLease(ctx context.Context, acct memory.AccountID, name, owner string, until time.Time) (bool, error)
	ReleaseLease(ctx context.Context, acct memory.AccountID, name, owner string) error
}
