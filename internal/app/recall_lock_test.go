package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// TestBlockIsNotHeldHostageByTheWriteLock: while another process holds
// the store's write lock (a background round), a prompt still gets its
// block; only its receipt goes unrecorded, and the result says so.
func TestBlockIsNotHeldHostageByTheWriteLock(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	path := filepath.Join(t.TempDir(), "cairn.db")
	eng, _ := clockEngine(t, path, &now)
	repo := t.TempDir()
	session := filepath.Join(t.TempDir(), "s.jsonl")
	writeLines(t, session, claudeLines("s", repo, now.Add(-2*time.Hour), []ccTurn{{User: "We decided to cache the router with a plain Map.", Answer: "Noted."}}))
	importClaude(t, eng, session)
	if _, err := eng.Maintain(ctx); err != nil {
		t.Fatal(err)
	}

	other, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	held, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- other.Update(ctx, func(*sqlite.Tx) error { close(held); <-release; return nil })
	}()
	<-held
	res, err := eng.Recall(ctx, engine.RecallRequest{Query: "how do we cache the router?", Cwd: repo, Provider: memory.ProviderClaudeCode, Session: "s2"})
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatalf("the block failed behind the write lock: %v", err)
	}
	if !strings.Contains(res.Block.Text, "plain Map") || res.ReceiptError == "" || res.Receipt != nil {
		t.Fatalf("block %q, receipt error %q, receipt %+v", res.Block.Text, res.ReceiptError, res.Receipt)
	}
	// With the lock free the receipt is recorded again.
	res, err = eng.Recall(ctx, engine.RecallRequest{Query: "how do we cache the router?", Cwd: repo, Provider: memory.ProviderClaudeCode, Session: "s3"})
	if err != nil || res.Receipt == nil || res.Receipt.ID == 0 || res.ReceiptError != "" {
		t.Fatalf("receipt not saved with the lock free: %+v %v", res, err)
	}
}
