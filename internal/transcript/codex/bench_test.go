package codex

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// corpusDir is the generated benchmark corpus (internal/corpus, seed 1,
// 200 MiB) as the import benchmark caches it; CAIRN_BENCH_CORPUS_DIR names
// another one.
func corpusDir(b *testing.B, sub string) string {
	dir := os.Getenv("CAIRN_BENCH_CORPUS_DIR")
	if dir == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				b.Skip("corpus absent: no home directory")
			}
			cache = filepath.Join(home, ".cache")
		}
		dir = filepath.Join(cache, "cairn-bench", "corpus-1-209715200")
	}
	dir = filepath.Join(dir, sub)
	if _, err := os.Stat(dir); err != nil {
		b.Skip("corpus absent: " + dir + " (run the import benchmark in internal/app once to make it)")
	}
	return dir
}

// BenchmarkParseCorpus parses every rollout of the cached benchmark
// corpus's Codex tree, as an import does.
func BenchmarkParseCorpus(b *testing.B) {
	root := corpusDir(b, "codex")
	paths, err := Discover(root)
	if err != nil || len(paths) == 0 {
		b.Fatalf("discover %s: %d files, %v", root, len(paths), err)
	}
	var size int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	b.SetBytes(size)
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		for _, p := range paths {
			if _, err := ParseFile(context.Background(), p); err != nil {
				b.Fatal(err)
			}
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/1e6/float64(b.N), "allocMB/op")
}
