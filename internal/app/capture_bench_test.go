package app

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// benchStore builds a store holding n earlier sessions of 20 turns.
func benchStore(b *testing.B, n int) (string, string) {
	b.Helper()
	dir := b.TempDir()
	corpus := filepath.Join(dir, "corpus")
	syntheticCorpus(b, corpus, n, 20)
	path := filepath.Join(dir, "cairn.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Readers: readers()})
	if _, err := eng.Import(context.Background(), engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{corpus}}); err != nil {
		b.Fatal(err)
	}
	db.Close()
	return path, dir
}

// BenchmarkCaptureTurn imports one finished turn — parse, redact, store,
// index, episode, markers, tool rules — into a store of 100 sessions.
func BenchmarkCaptureTurn(b *testing.B) {
	path, dir := benchStore(b, 100)
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Readers: readers()})
	files := make([]string, b.N)
	for i := range b.N {
		files[i] = filepath.Join(dir, "turns", fmt.Sprintf("t%d", i), "s.jsonl")
		writeLines(b, files[i], claudeLines(fmt.Sprintf("turn-%d", i), "/work/proj", time.Now(), []ccTurn{{
			User:       "From now on, always run `go vet ./...` before committing PAY-1432.",
			Answer:     "Ran go vet, committed as PAY-1432: vet clean.",
			ToolOutput: "[main 1a2b3c4] PAY-1432: vet clean\n 2 files changed",
		}}))
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := eng.Import(context.Background(), engine.ImportRequest{Provider: memory.ProviderClaudeCode, Paths: []string{files[i]}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenStore opens a store of 100 sessions and makes the due
// check every cairn process makes.
func BenchmarkOpenStore(b *testing.B) {
	path, _ := benchStore(b, 100)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		db, err := sqlite.Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve})
		if _, err := eng.MaintenanceDue(ctx); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}
