package app

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// TestGatewayRoundReachesQuietAccounts: after a restart, an account that
// has work due but makes no request still gets its background round.
func TestGatewayRoundReachesQuietAccounts(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	acct, err := gateway.Accounts{Store: db}.Create(ctx, "quiet")
	if err != nil {
		t.Fatal(err)
	}
	// A session that ended two days ago: phase 1 is due for it.
	at := time.Now().Add(-48 * time.Hour)
	place := memory.Place{Worktree: "/src/quiet", Project: "/src/quiet"}
	s := memory.Session{Provider: memory.ProviderClaudeCode, ExternalID: "quiet-1", Cwd: "/src/quiet", Place: place, StartedAt: at, EndedAt: at.Add(time.Hour),
		Turns: []memory.Turn{{Key: "t1", Status: memory.TurnCompleted, StartedAt: at, EndedAt: at.Add(time.Minute),
			Request: "always run make lint before pushing", Outcome: "noted: make lint before every push",
			Parts: []memory.Part{{Role: memory.RoleUser, Kind: memory.KindText, Text: "always run make lint before pushing", Time: at}}}}}
	if _, err := engine.New(sharedStore{db}, engine.Options{Config: config.Default(), Account: acct.ID}).Ingest(ctx, []memory.Session{s}); err != nil {
		t.Fatal(err)
	}
	lastRound := func() string {
		t.Helper()
		set, err := db.Settings(ctx, acct.ID)
		if err != nil {
			t.Fatal(err)
		}
		return set["worker.last_round"]
	}
	if lastRound() != "" {
		t.Fatal("control: a round ran before the gateway started")
	}
	gw := newGateway(db, config.Default(), t.TempDir(), gateway.Options{Rate: -1})
	t.Cleanup(func() { gw.Close() })
	gw.WorkOnce(ctx)
	if lastRound() == "" {
		t.Fatal("the gateway's round skipped an account that made no request since it started")
	}
}
