package claudecode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkParse reads a synthetic 2.1-style session of 500 turns, each
// with a split reply, a tool call and a 4 KB result.
func BenchmarkParse(b *testing.B) {
	sc := newScript(b)
	parent := ""
	out := strings.Repeat("output line\n", 340)
	for i := range 500 {
		u, a1, a2, r, a3 := fmt.Sprint("u", i), fmt.Sprint("a", i), fmt.Sprint("b", i), fmt.Sprint("r", i), fmt.Sprint("c", i)
		m := fmt.Sprint("m", i)
		sc.user(u, parent, fmt.Sprintf("request number %d", i)).
			asst(a1, u, m, "", text("Let me look.")).
			asst(a2, a1, m, "", toolUse("t"+u, "Bash", obj{"command": "make test", "description": "run"})).
			user(r, a2, []obj{toolResult("t"+u, out, false)}).
			asst(a3, r, "n"+m, "end_turn", text("Done with it."))
		parent = a3
	}
	data := sc.String()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := Parse(strings.NewReader(data), Options{})
		if err != nil || len(res.Sessions[0].Turns) != 500 {
			b.Fatal(err)
		}
	}
}

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

// BenchmarkParseCorpus parses every session of the cached benchmark
// corpus's Claude Code tree, subagent files included, as an import does.
func BenchmarkParseCorpus(b *testing.B) {
	root := filepath.Join(corpusDir(b, "claude"), "projects")
	paths, err := Discover(root)
	if err != nil || len(paths) == 0 {
		b.Fatalf("discover %s: %d files, %v", root, len(paths), err)
	}
	var size int64
	for _, p := range paths {
		res, err := ParseFile(context.Background(), p)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range res.Files {
			size += f.Size
		}
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
