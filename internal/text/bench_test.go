package text

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchText returns about 1 MiB made of the given sample repeated.
func benchText(b *testing.B, sample string) string {
	b.Helper()
	return strings.Repeat(sample, 1<<20/len(sample)+1)
}

func readSample(b *testing.B, name string) string {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}

// codeSample is this package's own Go source: real code with comments.
func codeSample(b *testing.B) string {
	b.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		b.Fatalf("no Go files: %v", err)
	}
	var sb strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(data)
	}
	return sb.String()
}

func benchmarkTokens(b *testing.B, s string) {
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Tokens(s)
	}
}

func BenchmarkTokensEnglish(b *testing.B) {
	benchmarkTokens(b, benchText(b, readSample(b, "bench_en.txt")))
}

func BenchmarkTokensCode(b *testing.B) { benchmarkTokens(b, benchText(b, codeSample(b))) }

func BenchmarkTokensChinese(b *testing.B) {
	benchmarkTokens(b, benchText(b, readSample(b, "bench_zh.txt")))
}

func BenchmarkIndexTextEnglish(b *testing.B) {
	s := benchText(b, readSample(b, "bench_en.txt"))
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		IndexText(s)
	}
}

// BenchmarkTokensShort is a note-sized input, the common case for Jaccard
// and for queries.
func BenchmarkTokensShort(b *testing.B) {
	s := "fix the flaky TestParseURL in internal/net/url_test.go for PAY-1432"
	benchmarkTokens(b, s)
}

func BenchmarkQueryTerms(b *testing.B) {
	q := "what did we decide about the retry policy for uploads to S3 in internal/upload/retry.go, 我们决定统一用 pnpm"
	b.ReportAllocs()
	for b.Loop() {
		QueryTerms(q, DefaultMaxTerms, nil)
	}
}

func BenchmarkBigramOverlap(b *testing.B) {
	x := "Our production deploy target is Hetzner Cloud, Falkenstein region."
	y := "We moved production: our deploy target is now Render, Oregon region."
	b.ReportAllocs()
	for b.Loop() {
		BigramOverlap(x, y)
	}
}

// BenchmarkFieldsLowerEnglish is a yardstick, not cairn code: the cheapest
// tokenizer imaginable on the same text, to read the figures above against
// on a busy or slow machine.
func BenchmarkFieldsLowerEnglish(b *testing.B) {
	s := benchText(b, readSample(b, "bench_en.txt"))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		strings.Fields(strings.ToLower(s))
	}
}
