package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

// SearchOptions holds `cairn search`'s inputs.
type SearchOptions struct {
	IO      *IOStreams
	Factory *Factory
	Query   string
	Layers  []string
	Place   string
	Cwd     string
	Limit   int
	JSON    bool
}

func newSearchCmd(f *Factory, runF func(context.Context, *SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search memory: every layer, ranked and fused",
		Long: `search finds what cairn remembers about QUERY in the place of a directory
(this checkout by default) and ranks it the way recall does: inside each
layer by relevance, then across layers by
layer_weight × (rank_score × 0.6 + lexical_score × 0.4) × confidence.`,
		Example: `  cairn search "why Map over lru-cache"
  cairn search PAY-1432 --place repo
  cairn search 部署 --layer L0 --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Query = strings.Join(args, " ")
			if opts.Cwd == "" {
				wd, err := os.Getwd()
				if err != nil {
					return memory.Wrap(memory.CodeInvalid, "find the current directory", err)
				}
				opts.Cwd = wd
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSearch(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringSliceVar(&opts.Layers, "layer", nil, "only these layers (L0, L1, L2, L3); repeatable")
	cmd.Flags().StringVar(&opts.Place, "place", "worktree", "widest place to read: worktree, project, repo or everywhere")
	cmd.Flags().StringVar(&opts.Cwd, "cwd", "", "directory whose place is searched (default: the current one)")
	cmd.Flags().IntVarP(&opts.Limit, "limit", "n", 10, "hits to show")
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

func runSearch(ctx context.Context, o *SearchOptions) error {
	rung, err := memory.ParseRung(o.Place)
	if err != nil {
		return err
	}
	var layers []memory.Layer
	for _, l := range o.Layers {
		x, err := memory.ParseLayer(l)
		if err != nil {
			return err
		}
		layers = append(layers, x)
	}
	eng, err := o.Factory.Memory(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := eng.Search(ctx, engine.SearchRequest{Query: o.Query, Layers: layers, Cwd: o.Cwd, Rung: rung, Limit: o.Limit})
	if err != nil {
		return err
	}
	if o.JSON {
		return printJSON(o.IO.Out, res)
	}
	w := o.IO.Out
	if len(res.Terms) == 0 {
		fmt.Fprintln(w, "nothing to search for: the query has only stop words")
		return nil
	}
	if len(res.Hits) == 0 {
		fmt.Fprintf(w, "no matches for %s in %s (%s); try --place repo or --place everywhere\n", strings.Join(res.Terms, " "), res.Place.Worktree, res.Rung)
		return nil
	}
	for i, h := range res.Hits {
		src := fmt.Sprintf("session %s", short(h.SessionRef))
		if h.TurnSeq > 0 {
			src += fmt.Sprintf(" turn %d", h.TurnSeq)
		}
		fmt.Fprintf(w, "%s %s %s  %s\n", o.IO.Bold(fmt.Sprintf("%2d.", i+1)), h.Layer, o.IO.Dim(fmt.Sprintf("score %.3f = %.2f × (%.2f×rank %.3f + %.2f×lex %.2f) × conf %.2f · bm25 %.2f",
			h.Score, h.Weight, 0.6, h.RankScore, 0.4, h.Lexical, h.Confidence, h.BM25)), src)
		fmt.Fprintln(w, indent("    ", snippet(h.Text, 240)))
	}
	return nil
}

// short keeps the start of a long id.
func short(id string) string {
	if len(id) > 13 {
		return id[:13] + "…"
	}
	return id
}

// snippet trims text to about n characters on one line.
func snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
