package app

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/evaluate"
)

var update = flag.Bool("update", false, "rewrite golden files")

// locomoPath is the benchmark's place beside the repository; the data set
// (CC BY-NC 4.0) is never copied into it.
const locomoPath = "../../../shared/data/locomo/locomo10.json"

// TestLoCoMoRecallGolden is the regression gate of retrieval: the eval
// command's figures on LoCoMo must not drop below testdata/locomo.golden.json.
// Refresh the golden file with -update after an intended change.
func TestLoCoMoRecallGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("LoCoMo evaluation skipped in -short")
	}
	if _, err := os.Stat(locomoPath); err != nil {
		t.Skipf("SKIPPED LOUDLY: LoCoMo data absent at %s (%v); the retrieval regression gate did not run", locomoPath, err)
	}
	t.Setenv("CAIRN_HOME", t.TempDir())
	ds, err := evaluate.LoadFile(evaluate.FormatLoCoMo, locomoPath)
	if err != nil {
		t.Fatal(err)
	}
	f := newFactory(strings.NewReader(""), os.Stdout, os.Stderr, os.Getenv)
	got, _, err := cli.EvalRetrieval(context.Background(), f, ds, engine.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "locomo.golden.json")
	if *update {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(golden, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	var want evaluate.Report
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	got.Format(&sb)
	t.Logf("LoCoMo turn-level retrieval:\n%s", sb.String())
	if drops := got.Compare(want, 1e-6); len(drops) > 0 {
		t.Fatalf("retrieval got worse than %s:\n  %s", golden, strings.Join(drops, "\n  "))
	}
}
