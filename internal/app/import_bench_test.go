//go:build unix

package app

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/corpus"
)

// benchCorpusSeed fixes the benchmark corpus, so that figures from
// different commits are measured on the same bytes.
const benchCorpusSeed = 1

// benchCorpusMB is the corpus size unless CAIRN_BENCH_CORPUS_MB says
// otherwise.
const benchCorpusMB = 200

// BenchmarkImportCorpus runs the real binary's `cairn import --json` over
// a generated corpus of Claude Code and Codex transcripts, each iteration
// into an empty store, and reports throughput overall and per stage and
// the process's peak RSS. The corpus is made once and cached outside the
// repository (corpus.DefaultCacheDir).
func BenchmarkImportCorpus(b *testing.B) {
	b.StopTimer()
	mb := benchCorpusMB
	if s := os.Getenv("CAIRN_BENCH_CORPUS_MB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("CAIRN_BENCH_CORPUS_MB=%q: want a positive number of megabytes", s)
		}
		mb = n
	}
	cache, err := corpus.DefaultCacheDir()
	if err != nil {
		b.Fatal(err)
	}
	dir, err := corpus.Ensure(cache, corpus.Options{TargetBytes: int64(mb) << 20, Seed: benchCorpusSeed})
	if err != nil {
		b.Fatal(err)
	}
	want, err := corpus.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("corpus %s: %d files, %.1f MB (claude %d files, codex %d files), %d sessions, %d turns",
		dir, want.Files, float64(want.Bytes)/1e6, want.Claude.Files, want.Codex.Files,
		want.Claude.Sessions+want.Codex.Sessions, want.Claude.Turns+want.Codex.Turns)
	bin := buildCairnForBench(b)

	var (
		wall   time.Duration
		total  int64
		stages struct{ parse, redact, store time.Duration }
		peakKB int64
		cpu    time.Duration // the child's user+system time
	)
	for range b.N {
		home := b.TempDir()
		// The client flags name each tree's reader: given bare directories,
		// import runs every reader's discovery on each of them.
		cmd := exec.Command(bin, "import", "--json",
			"--claude-code="+filepath.Join(dir, "claude", "projects"),
			"--codex="+filepath.Join(dir, "codex"))
		cmd.Env = append(os.Environ(), "CAIRN_HOME="+home, "NO_COLOR=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		b.StartTimer()
		start := time.Now()
		err := cmd.Run()
		elapsed := time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatalf("cairn import: %v\n%s", err, stderr.Bytes())
		}
		var out cli.ImportOutput
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			b.Fatalf("cairn import --json: %v\n%.2000s", err, stdout.Bytes())
		}
		for _, s := range out.Sources {
			if s.Error != "" {
				b.Fatalf("import of %s failed: %s", s.Source, s.Error)
			}
		}
		// A corpus read wrongly would make the figures meaningless.
		t := out.Totals
		if t.Failed != 0 || t.Skipped != 0 || t.Bytes != want.Bytes || t.Sessions != want.Claude.Sessions+want.Codex.Sessions {
			b.Fatalf("import read %d bytes, %d sessions, skipped %d lines %v, %d failed; the corpus holds %d bytes, %d sessions",
				t.Bytes, t.Sessions, t.Skipped, t.Reasons, t.Failed, want.Bytes, want.Claude.Sessions+want.Codex.Sessions)
		}
		wall += elapsed
		total += t.Bytes
		stages.parse += t.Stages.Parse
		stages.redact += t.Stages.Redact
		stages.store += t.Stages.Store
		peakKB = max(peakKB, maxRSSKB(cmd.ProcessState))
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		os.RemoveAll(home) // a store per iteration would fill the disk
	}
	mbps := func(d time.Duration) float64 {
		if d <= 0 {
			return 0
		}
		return float64(total) / 1e6 / d.Seconds()
	}
	b.ReportMetric(mbps(wall), "e2e-MB/s")
	// On shared cores wall time includes waiting for a CPU; throughput
	// per CPU second does not.
	b.ReportMetric(mbps(cpu), "cpu-MB/s")
	b.ReportMetric(mbps(stages.parse), "parse-MB/s")
	b.ReportMetric(mbps(stages.redact), "redact-MB/s")
	b.ReportMetric(mbps(stages.store), "store-MB/s")
	b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
}

// buildCairnForBench builds the binary into the benchmark's temporary
// directory, from the module root.
func buildCairnForBench(b *testing.B) string {
	b.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "cairn")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/cairn")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// maxRSSKB is a finished process's peak resident set in KiB: Linux
// reports kilobytes, macOS bytes.
func maxRSSKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
