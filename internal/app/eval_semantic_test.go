package app

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/evaluate"
	"github.com/cairn-memory/cairn/internal/openaiembed/embedtest"
)

// TestLoCoMoSemanticLegs runs the eval command's side-by-side mode on
// LoCoMo against the scripted embeddings server (hashed bags of words: no
// meaning, only shared words; a real model is not available offline). It
// checks that the lexical column with an endpoint configured is exactly
// the golden lexical figures, and logs the fused figures. It embeds
// 5,882 turns and asks 1,986 questions twice, so it runs on request:
// CAIRN_EVAL_SEMANTIC=1 go test ./internal/app -run LoCoMoSemantic -v
func TestLoCoMoSemanticLegs(t *testing.T) {
	if os.Getenv("CAIRN_EVAL_SEMANTIC") == "" {
		t.Skip("SKIPPED: set CAIRN_EVAL_SEMANTIC=1 to run LoCoMo with the scripted semantic leg")
	}
	if _, err := os.Stat(locomoPath); err != nil {
		t.Skipf("SKIPPED LOUDLY: LoCoMo data absent at %s (%v)", locomoPath, err)
	}
	srv := embedtest.NewServer(map[string]embedtest.Vectorizer{"hashed-bow-512": {Dim: 512}})
	defer srv.Close()
	t.Setenv("CAIRN_HOME", t.TempDir())
	t.Setenv("CAIRN_EMBEDDINGS_BASE_URL", srv.BaseURL())
	t.Setenv("CAIRN_EMBEDDINGS_MODEL", "hashed-bow-512")
	ds, err := evaluate.LoadFile(evaluate.FormatLoCoMo, locomoPath)
	if err != nil {
		t.Fatal(err)
	}
	f := newFactory(strings.NewReader(""), os.Stdout, os.Stderr, os.Getenv)
	legs, took, err := cli.EvalRetrievalLegs(context.Background(), f, ds, engine.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/locomo.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var want evaluate.Report
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if drops := legs.Lexical.Compare(want, 1e-6); len(drops) > 0 {
		t.Fatalf("the lexical leg changed with an endpoint configured:\n  %s", strings.Join(drops, "\n  "))
	}
	if legs.Failed != 0 || legs.Embedded["L0"] == 0 {
		t.Fatalf("%d questions fell back; %v embedded", legs.Failed, legs.Embedded)
	}
	out, _ := json.MarshalIndent(legs, "", "  ")
	t.Logf("in %s:\n%s", took, out)
}
