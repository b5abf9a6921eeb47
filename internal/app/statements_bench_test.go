package app

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// BenchmarkWriteStatements writes facts through the one write point, one
// transaction each, over 500 one-value slots so most writes supersede an
// older value. Target: ≥ 5,000 statements/s.
func BenchmarkWriteStatements(b *testing.B) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve})
	place := memory.Place{Worktree: "/w", Project: "/w/.git", Repo: "github.com/a/b"}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		d := memory.Draft{Kind: memory.KindFact, Subject: fmt.Sprintf("service-%d", i%500), Predicate: "deploy_target",
			Object: fmt.Sprintf("cluster %d in region %d", i, i%7), Class: memory.ClassEnvironment, ValidAt: start.Add(time.Duration(i) * time.Minute)}
		if _, err := eng.Write(ctx, engine.Write{Draft: d, Writer: memory.WriterCLI, Place: &place}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "statements/s")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}

// cpuTime is the CPU time this process has used, user and system: on a
// shared machine it moves far less with the load than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
