package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/evaluate"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

func newEvalCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure cairn on benchmarks",
	}
	cmd.AddCommand(newEvalRetrievalCmd(f, nil))
	return cmd
}

// EvalRetrievalOptions holds `cairn eval retrieval`'s inputs.
type EvalRetrievalOptions struct {
	IO      *IOStreams
	Factory *Factory
	Format  string
	Path    string
	Layers  []string
	JSON    bool
}

func newEvalRetrievalCmd(f *Factory, runF func(context.Context, *EvalRetrievalOptions) error) *cobra.Command {
	opts := &EvalRetrievalOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "retrieval PATH",
		Short: "Recall@k, MRR and session-hit@k of cairn's search on a conversational benchmark",
		Long: `retrieval loads a benchmark into a fresh temporary store through the same
write path as real data (each conversation is its own place, each turn one raw
part, each session's date the turn time), asks every question through the
same search the agent uses, and reports recall as LoCoMo defines it:
|evidence ∩ top-k turns| / |evidence|, averaged over questions with evidence.
Your configuration applies, so fusion knobs can be tried with CAIRN_RANK_*.
With an embeddings endpoint configured (embeddings.base_url), every row is
embedded first and each question asked twice: the lexical and the fused
figures are shown side by side.`,
		Example: `  cairn eval retrieval --format locomo ../shared/data/locomo/locomo10.json
  cairn eval retrieval --format jsonl my-benchmark.jsonl --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runEvalRetrieval(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "locomo", "input format: locomo or jsonl (see docs/eval-format.md)")
	cmd.Flags().StringSliceVar(&opts.Layers, "layer", nil, "only search these layers")
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

// EvalReport is the JSON form of an evaluation.
type EvalReport struct {
	evaluate.Report
	Seconds float64 `json:"seconds"`
}

func runEvalRetrieval(ctx context.Context, o *EvalRetrievalOptions) error {
	ds, err := evaluate.LoadFile(o.Format, o.Path)
	if err != nil {
		return memory.Wrap(memory.CodeInvalid, "load "+o.Path, err)
	}
	var layers []memory.Layer
	for _, l := range o.Layers {
		x, err := memory.ParseLayer(l)
		if err != nil {
			return err
		}
		layers = append(layers, x)
	}
	if cfg, err := o.Factory.Config(); err == nil && cfg.Embeddings.SemanticSearch() {
		legs, took, err := EvalRetrievalLegs(ctx, o.Factory, ds, engine.EvalOptions{Layers: layers, Progress: evalProgress(o)})
		if err != nil {
			return err
		}
		if o.JSON {
			return printJSON(o.IO.Out, EvalLegsReport{EvalLegs: legs, Seconds: took.Seconds()})
		}
		formatLegs(o.IO.Out, legs)
		fmt.Fprintf(o.IO.Out, "%d questions (each asked twice) in %.1fs\n", len(ds.Questions), took.Seconds())
		return nil
	}
	rep, took, err := EvalRetrieval(ctx, o.Factory, ds, engine.EvalOptions{Layers: layers, Progress: evalProgress(o)})
	if err != nil {
		return err
	}
	if o.JSON {
		return printJSON(o.IO.Out, EvalReport{Report: rep, Seconds: took.Seconds()})
	}
	rep.Format(o.IO.Out)
	fmt.Fprintf(o.IO.Out, "%d questions in %.1fs\n", len(ds.Questions), took.Seconds())
	return nil
}

// EvalRetrieval runs an evaluation in a scratch store that is removed
// afterwards. Tests call it to compare against the golden figures.
func EvalRetrieval(ctx context.Context, f *Factory, ds evaluate.Dataset, opts engine.EvalOptions) (evaluate.Report, time.Duration, error) {
	dir, err := os.MkdirTemp("", "cairn-eval-")
	if err != nil {
		return evaluate.Report{}, 0, memory.Wrap(memory.CodeInternal, "create scratch store", err)
	}
	defer os.RemoveAll(dir)
	cfg, err := f.Config()
	if err != nil {
		return evaluate.Report{}, 0, err
	}
	eng, err := f.OpenEngine(ctx, filepath.Join(dir, "eval.db"), cfg.Config)
	if err != nil {
		return evaluate.Report{}, 0, err
	}
	defer eng.Close()
	start := time.Now()
	rep, err := eng.EvalRetrieval(ctx, ds, opts)
	return rep, time.Since(start), err
}

func evalProgress(o *EvalRetrievalOptions) func(int, int) {
	bar := newProgress(o.IO, !o.JSON)
	return func(done, total int) {
		if done%25 == 0 || done == total {
			bar.show(done, total)
		}
		if done == total {
			bar.clear()
		}
	}
}
