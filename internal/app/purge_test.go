package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// TestPurgeRemovesTextFromTheFile: a forgotten note and a retracted fact
// are in the database's bytes before a purge (the control) and in neither
// the file nor its WAL after it, while a kept note stays.
func TestPurgeRemovesTextFromTheFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	eng := engine.New(sharedStore{db}, engine.Options{Config: config.Default()})
	place := memory.Place{Worktree: "/w", Project: "/w"}
	forgotten, err := eng.RememberAt(ctx, "the vault combination is glimmerquartz", "", "", false, place)
	if err != nil {
		t.Fatal(err)
	}
	retracted, err := eng.Write(ctx, engine.Write{Draft: memory.Draft{Kind: memory.KindFact, Subject: "billing",
		Predicate: "provider", Object: "snarkleberry payments"}, Writer: memory.WriterCLI, Place: &place})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.RememberAt(ctx, "keep the marmaladeonion rule", "", "", false, place); err != nil {
		t.Fatal(err)
	}
	// A recall that carried the note leaves a receipt holding its text.
	rec, err := eng.Recall(ctx, engine.RecallRequest{Query: "vault combination glimmerquartz", Place: &place,
		Provider: memory.ProviderClaudeCode, Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Block.Text, "glimmerquartz") || rec.Receipt == nil {
		t.Fatalf("control: the recall did not carry the note: %q", rec.Block.Text)
	}
	if _, err := eng.Forget(ctx, engine.Ref{ID: forgotten.Statement.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Retract(ctx, retracted.Statement.ID); err != nil {
		t.Fatal(err)
	}
	gone := []string{"glimmerquartz", "snarkleberry"}
	bytesOf := func() []byte {
		var all []byte
		for _, p := range []string{path, path + "-wal"} {
			b, err := os.ReadFile(p)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			all = append(all, b...)
		}
		return all
	}
	before := bytesOf()
	for _, w := range gone {
		if !bytes.Contains(before, []byte(w)) {
			t.Fatalf("control: %q is not in the store before the purge, so the test proves nothing", w)
		}
	}
	counts, err := eng.Purge(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if counts.Statements != 2 || counts.Traces == 0 {
		t.Fatalf("purge counts %+v: want 2 statements and the receipt", counts)
	}
	after := bytesOf()
	for _, w := range gone {
		if i := bytes.Index(after, []byte(w)); i >= 0 {
			t.Errorf("%q is still in the database bytes at %d after the purge", w, i)
		}
	}
	if !bytes.Contains(after, []byte("marmaladeonion")) {
		t.Errorf("the kept note was purged too")
	}
	// The store is whole and the kept note still found.
	h, err := eng.Health(ctx)
	if err != nil || h.Integrity != "ok" {
		t.Fatalf("health after purge: %+v %v", h, err)
	}
	res, err := eng.Search(ctx, engine.SearchRequest{Query: "marmaladeonion", Place: &place})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("search after purge: %+v %v", res, err)
	}
	if _, err := eng.Statement(ctx, forgotten.Statement.ID); !memory.IsCode(err, memory.CodeNotFound) {
		t.Fatalf("purged note still readable: %v", err)
	}
}
