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
	Promoted engine.MaintainReport   `json:"maintenance"`
	Standing engine.RecallResult     `json:"codex_session_start"`
	Recall   engine.RecallResult     `json:"codex_first_prompt"`
	Notes    []memory.Statement      `json:"notes"`
	Facts    []memory.Statement      `json:"facts"`
	Sessions []memory.SessionSummary `json:"sessions"`
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
	importAll := func(p memory.Provider, dir string) error {
		reps, err := eng.Import(ctx, engine.ImportRequest{Provider: p, Paths: []string{dir}})
		if err != nil {
			return err
		}
		for _, r := range reps {
			if r.Error != "" {
				return memory.Errorf(memory.CodeInternal, "demo import of %s failed: %s", r.Source, r.Error)
			}
		}
		out.Imported = append(out.Imported, reps...)
		return nil
	}
	// Day 1 in Claude Code ends: the session is imported (its SessionEnd
	// hook does this), and its candidates settle overnight.
	if err := importAll(memory.ProviderClaudeCode, scene.ClaudeDir); err != nil {
		return err
	}
	if out.Promoted, err = eng.Maintain(ctx); err != nil {
		return err
	}
	// Day 2: a Codex session starts in the same repository, and the user asks.
	req := engine.RecallRequest{Cwd: scene.Repo, Provider: memory.ProviderCodex, Session: "demo-codex-day2", Start: true}
	if out.Standing, err = eng.Standing(ctx, req); err != nil {
		return err
	}
	req.Start, req.Query = false, demo.Day2Prompt
	if out.Recall, err = eng.Recall(ctx, req); err != nil {
		return err
	}
	if err := importAll(memory.ProviderCodex, scene.CodexDir); err != nil {
		return err
	}
	v, err := eng.Notes(ctx, false, false)
	if err != nil {
		return err
	}
	out.Notes = v.Notes
	facts, err := eng.Facts(ctx, engine.FactQuery{Cwd: scene.Repo})
	if err != nil {
		return err
	}
	out.Facts = facts.Current
	if out.Sessions, err = eng.Sessions(ctx, 0); err != nil {
		return err
	}
	if o.JSON {
		return printJSON(o.IO.Out, out)
	}
	printDemo(o.IO, out)
	return nil
}

func printDemo(io *IOStreams, out DemoOutput) {
	w := io.Out
	redactions := 0
	for _, r := range out.Imported {
		redactions += r.Redactions
	}
	fmt.Fprintln(w, io.Bold("Day 1, Claude Code:")+" the user states the commit format and the ticket, picks a Map over lru-cache,")
	fmt.Fprintln(w, "and settles on pnpm. The session ends and cairn imports it ("+fmt.Sprint(redactions)+" secret redacted before storing).")
	fmt.Fprintf(w, "Overnight the settled candidates are promoted: %d new, %d merged.\n\n", out.Promoted.Promoted, out.Promoted.Merged)
	fmt.Fprintln(w, io.Bold("Day 2, Codex, same repository. What its SessionStart hook hands the model:"))
	fmt.Fprintln(w, io.Dim(out.Standing.Block.Text))
	fmt.Fprintf(w, "\n%s %q\n", io.Bold("The first prompt:"), demo.Day2Prompt)
	fmt.Fprintln(w, io.Dim(out.Recall.Block.Text))
	fmt.Fprintf(w, "\n%s\n", io.Bold("What cairn remembers now"))
	for _, n := range out.Notes {
		fmt.Fprintf(w, "  note #%d  %s  %s\n", n.ID, n.Object, io.Dim(fmt.Sprintf("(%s %s, %s)", n.Tier, n.Class, n.Scope.Rung)))
	}
	for _, f := range out.Facts {
		fmt.Fprintf(w, "  fact #%d  %s · %s = %s  %s\n", f.ID, f.Subject, f.Predicate, f.Object, io.Dim(fmt.Sprintf("(%s, since %s)", f.Tier, when(f.ValidAt))))
	}
	fmt.Fprintf(w, "  %d sessions from 2 clients, one repository\n", len(out.Sessions))
	if out.Dir != "" {
		fmt.Fprintf(w, "\nScratch directory kept at %s (store: %s)\n", out.Dir, filepath.Join(out.Dir, "home", "cairn.db"))
	}
}
