package sqlite

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// BenchmarkStatementPages counts the pages a statement's own transaction
// writes, by table and index, on the workload of BenchmarkWriteStatements
// (500 one-value slots, nearly every write supersedes an older value,
// after 4,000 writes of history). Every page written is a WAL frame, two
// pwrite calls, the larger part of a commit's cost (BENCHMARKS.md,
// Statements); unlike the time a write takes, the count does not move
// with the machine's load. Checkpoints are off while it runs, so every
// frame stays in the WAL, where its page number is mapped to its b-tree
// through dbstat.
//
//	go test -run XXX -bench BenchmarkStatementPages -benchtime 1000x ./internal/sqlite
func BenchmarkStatementPages(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "pages.db")
	db, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	place := memory.Place{Worktree: "/w", Project: "/w/.git", Repo: "github.com/a/b"}
	see := memory.SightOf(place, memory.RungEverywhere)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write := func(i int) {
		st := memory.Statement{Kind: memory.KindFact, Subject: fmt.Sprintf("service-%d", i%500), Predicate: "deploy_target",
			Object: fmt.Sprintf("cluster %d in region %d", i, i%7), Class: memory.ClassEnvironment, Cardinality: memory.One,
			Tier: memory.TierAsserted, Writer: memory.WriterCLI, Scope: memory.Scope{Rung: memory.RungProject, Key: place.Project},
			Confidence: 0.9, ValidAt: start.Add(time.Duration(i) * time.Minute)}
		decide := func(slot []memory.Statement) temporal.Plan { return temporal.Decide(st, slot, 0.7) }
		if _, _, err := db.ApplyStatement(ctx, 1, st, see, decide); err != nil {
			b.Fatal(err)
		}
	}
	const history = 4000
	for i := range history {
		write(i)
	}
	for _, q := range []string{`PRAGMA wal_checkpoint(TRUNCATE)`, `PRAGMA wal_autocheckpoint = 0`} {
		if _, err := db.execWrite(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		write(history + i)
	}
	b.StopTimer()
	wal, err := os.ReadFile(path + "-wal")
	if err != nil {
		b.Fatal(err)
	}
	if len(wal) < 32 {
		b.Fatalf("WAL of %d bytes after %d writes", len(wal), b.N)
	}
	// A WAL is a 32-byte header, then frames: a 24-byte header whose first
	// field is the page number, then the page.
	pageSize := int(binary.BigEndian.Uint32(wal[8:12]))
	perPage := map[int64]int{}
	frames := 0
	for off := 32; off+24+pageSize <= len(wal); off += 24 + pageSize {
		perPage[int64(binary.BigEndian.Uint32(wal[off:]))]++
		frames++
	}
	owner := map[int64]string{}
	rows, err := db.read.QueryContext(ctx, `SELECT name, pageno FROM dbstat`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var name string
		var pg int64
		if err := rows.Scan(&name, &pg); err != nil {
			b.Fatal(err)
		}
		owner[pg] = name
	}
	rows.Close()
	by := map[string]int{}
	for pg, n := range perPage {
		name := owner[pg]
		if name == "" {
			name = "free list"
		}
		by[name] += n
	}
	names := make([]string, 0, len(by))
	for name := range by {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		return by[names[i]] > by[names[j]] || by[names[i]] == by[names[j]] && names[i] < names[j]
	})
	var sb strings.Builder
	for _, name := range names {
		fmt.Fprintf(&sb, "\n  %-28s %5.2f", name, float64(by[name])/float64(b.N))
	}
	b.Logf("pages written per statement (page size %d), by b-tree:%s", pageSize, sb.String())
	b.ReportMetric(float64(frames)/float64(b.N), "pages/op")
}
