package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/demo"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

// DemoOptions holds `cairn demo`'s inputs.
type DemoOptions struct {
	IO      *IOStreams
	Factory *Factory
	Keep    bool
	JSON    bool
}

func newDemoCmd(f *Factory, runF func(context.Context, *DemoOptions) error) *cobra.Command {
	opts := &DemoOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Show what cairn remembers, on bundled sample sessions in a scratch store",
		Long: `demo writes two sample sessions in the clients' real formats — a day of work
in Claude Code and a Codex session the next morning, in the same repository —
into a temporary directory, imports them into a fresh store there, and shows
what cairn made of them. It needs no client, model or server, and it never
touches your own store.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runDemo(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Keep, "keep", false, "keep the scratch directory and print its path")
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

// DemoOutput is the JSON form of the demo.
type DemoOutput struct {
	Dir      string                  `json:"dir,omitempty"`
	Imported []engine.SourceReport   `json:"imported"`
	Sessions []memory.SessionSummary `json:"sessions"`
	Day1     memory.Session          `json:"day1"`
}

func runDemo(ctx context.Context, o *DemoOptions) error {
	root, err := os.MkdirTemp("", "cairn-demo-")
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "create scratch dir", err)
	}
	if !o.Keep {
		defer os.RemoveAll(root)
	}
	scene, err := demo.Build(root)
	if err != nil {
		return memory.Wrap(memory.CodeInternal, "write sample sessions", err)
	}
	eng, err := o.Factory.OpenEngine(ctx, filepath.Join(root, "home", "cairn.db"), config.Default())
	if err != nil {
		return err
	}
	defer eng.Close()

	out := DemoOutput{}
	if o.Keep {
		out.Dir = root
	}
	for _, req := range []engine.ImportRequest{
		{Provider: memory.ProviderClaudeCode, Paths: []string{scene.ClaudeDir}},
		{Provider: memory.ProviderCodex, Paths: []string{scene.CodexDir}},
	} {
		reps, err := eng.Import(ctx, req)
		if err != nil {
			return err
		}
		for _, r := range reps {
			if r.Error != "" {
				return memory.Errorf(memory.CodeInternal, "demo import of %s failed: %s", r.Source, r.Error)
			}
		}
		out.Imported = append(out.Imported, reps...)
	}
	if out.Sessions, err = eng.Sessions(ctx, 0); err != nil {
		return err
	}
	for _, s := range out.Sessions {
		if s.Provider == memory.ProviderClaudeCode {
			if out.Day1, err = eng.Session(ctx, fmt.Sprint(s.ID)); err != nil {
				return err
			}
		}
	}
	if o.JSON {
		return printJSON(o.IO.Out, out)
	}
	printDemo(o.IO, out)
	return nil
}

func printDemo(io *IOStreams, out DemoOutput) {
	w := io.Out
	fmt.Fprintln(w, io.Bold("1. Two sessions, two clients, one repository"))
	redactions := 0
	for _, r := range out.Imported {
		redactions += r.Redactions
	}
	for _, s := range out.Sessions {
		fmt.Fprintf(w, "   %-12s %s  %d turns  repo %s  (worktree %s)\n", s.Provider, when(s.StartedAt), s.TurnCount, s.Place.Repo, filepath.Base(s.Place.Worktree))
	}
	fmt.Fprintf(w, "   Both resolve to the same repo, so what one client learns the other can be shown.\n\n")
	fmt.Fprintln(w, io.Bold("2. What was kept from day 1 (raw layer, redacted before storing)"))
	for _, t := range out.Day1.Turns {
		fmt.Fprintln(w, indent(fmt.Sprintf("   #%d you: ", t.Seq), t.Request))
		for _, p := range t.Parts {
			if p.Kind == memory.KindToolResult {
				fmt.Fprintln(w, io.Dim(indent("      tool: ", p.Text)))
			}
		}
	}
	fmt.Fprintf(w, "\n   %d secret(s) were replaced by [REDACTED:…] before anything was stored.\n", redactions)
	if out.Dir != "" {
		fmt.Fprintf(w, "\nScratch directory kept at %s (store: %s)\n", out.Dir, filepath.Join(out.Dir, "home", "cairn.db"))
	}
}
