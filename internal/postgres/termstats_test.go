package postgres

import (
	"context"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// TestTermStatsPerAccount: one account's rows never count in another's
// term statistics (they choose which query terms a search keeps).
func TestTermStatsPerAccount(t *testing.T) {
	ctx := context.Background()
	db, ownerDSN := appOnly(t)
	if err := db.UseOwner(ctx, ownerDSN); err != nil {
		t.Fatal(err)
	}
	other, err := db.CreateAccount(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	s := memory.Session{Provider: "test", ExternalID: "s", Turns: []memory.Turn{{Key: "0", Seq: 1, Status: memory.TurnCompleted, Digest: "d",
		Parts: []memory.Part{{Seq: 1, Role: memory.RoleUser, Kind: memory.KindText, Text: "the zebrafoo rollout"}}}}}
	if _, err := db.SaveSession(ctx, other.ID, s); err != nil {
		t.Fatal(err)
	}
	mine, err := db.TermStats(ctx, memory.LocalAccount, memory.L0, []string{"zebrafoo"})
	if err != nil {
		t.Fatal(err)
	}
	if mine.DF["zebrafoo"] != 0 || mine.Docs != 0 || mine.Total != 0 {
		t.Fatalf("another account's part counted: %+v", mine)
	}
	theirs, err := db.TermStats(ctx, other.ID, memory.L0, []string{"zebrafoo", "rollout", "absent"})
	if err != nil {
		t.Fatal(err)
	}
	if theirs.DF["zebrafoo"] != 1 || theirs.DF["rollout"] != 1 || theirs.DF["absent"] != 0 || theirs.Docs != 1 {
		t.Fatalf("the account's own statistics: %+v", theirs)
	}
}
