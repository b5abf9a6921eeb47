package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/evaluate"
	"github.com/cairn-memory/cairn/internal/memory"
)

// EvalLegsReport is the JSON form of an evaluation with an embeddings
// endpoint: the lexical and fused figures side by side.
type EvalLegsReport struct {
	engine.EvalLegs
	Seconds float64 `json:"seconds"`
}

// EvalRetrievalLegs runs an evaluation with the semantic leg in a scratch
// store that is removed afterwards.
func EvalRetrievalLegs(ctx context.Context, f *Factory, ds evaluate.Dataset, opts engine.EvalOptions) (engine.EvalLegs, time.Duration, error) {
	dir, err := os.MkdirTemp("", "cairn-eval-")
	if err != nil {
		return engine.EvalLegs{}, 0, memory.Wrap(memory.CodeInternal, "create scratch store", err)
	}
	defer os.RemoveAll(dir)
	cfg, err := f.Config()
	if err != nil {
		return engine.EvalLegs{}, 0, err
	}
	eng, err := f.OpenEngine(ctx, filepath.Join(dir, "eval.db"), cfg.Config)
	if err != nil {
		return engine.EvalLegs{}, 0, err
	}
	defer eng.Close()
	start := time.Now()
	rep, err := eng.EvalRetrievalLegs(ctx, ds, opts)
	return rep, time.Since(start), err
}

// formatLegs prints each row's recall and MRR, lexical then fused, and
// the difference.
func formatLegs(w io.Writer, l engine.EvalLegs) {
	fmt.Fprintf(w, "semantic leg: %s; embedded %d statements, %d episodes, %d parts", l.Model,
		l.Embedded[memory.L1], l.Embedded[memory.L2], l.Embedded[memory.L0])
	if l.Failed > 0 {
		fmt.Fprintf(w, "; %d questions fell back to lexical", l.Failed)
	}
	fmt.Fprintln(w)
	rows := append([]evaluate.Metrics{l.Lexical.Overall}, l.Lexical.Categories...)
	fused := map[string]evaluate.Metrics{l.Fused.Overall.Category: l.Fused.Overall}
	for _, m := range l.Fused.Categories {
		fused[m.Category] = m
	}
	fmt.Fprintf(w, "%-13s %-7s", "category", "leg")
	for _, k := range l.Lexical.Ks {
		fmt.Fprintf(w, " %7s", fmt.Sprintf("R@%d", k))
	}
	fmt.Fprintf(w, " %7s\n", "MRR")
	for _, lx := range rows {
		fu := fused[lx.Category]
		line := func(leg string, m evaluate.Metrics, diff bool) {
			fmt.Fprintf(w, "%-13s %-7s", lx.Category, leg)
			for _, k := range l.Lexical.Ks {
				v := m.Recall[k]
				if diff {
					v = fu.Recall[k] - lx.Recall[k]
				}
				fmt.Fprintf(w, " %+7.3f", v)
			}
			v := m.MRR
			if diff {
				v = fu.MRR - lx.MRR
			}
			fmt.Fprintf(w, " %+7.3f\n", v)
		}
		line("lexical", lx, false)
		line("fused", fu, false)
		line("Δ", fu, true)
	}
}
