package text

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestGolden records what the tokenizer makes of realistic lines, so a
// change in tokens or term selection shows up in review as a diff.
func TestGolden(t *testing.T) {
	in, err := os.Open(filepath.Join("testdata", "samples.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var b strings.Builder
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fmt.Fprintf(&b, "in:     %s\n", line)
		fmt.Fprintf(&b, "index:  %s\n", IndexText(line))
		fmt.Fprintf(&b, "query:  %s\n", strings.Join(QueryTokens(line), " "))
		fmt.Fprintf(&b, "top 6:  %s\n", strings.Join(QueryTerms(line, 6, nil), " "))
		fmt.Fprintf(&b, "tokens: %d estimated\n\n", EstimateTokens(line))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "tokens.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("output differs from %s; run go test -update and review the diff.\ngot:\n%s", path, got)
	}
}
