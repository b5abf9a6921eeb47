package cli

import (
	"context"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/tui"
)

var _ tui.Engine = (*engine.Engine)(nil)

// TUIOptions holds `cairn tui`'s inputs.
type TUIOptions struct {
	IO      *IOStreams
	Factory *Factory
	Cwd     string
}

func newTUICmd(f *Factory, runF func(context.Context, *TUIOptions) error) *cobra.Command {
	opts := &TUIOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Browse, search, forget, undo and pin memory in the terminal",
		Long: `tui is a terminal memory manager over this machine's store: L1 notes,
L2 episodes, the L3 profile and what was forgotten, each in a tab with a
detail pane; / searches every layer from this directory's place up to
everywhere; f forgets, u undoes, p pins, ? lists every key. Raw transcript
parts and the profile are shown, never changed. docs/tui.md has the keys.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := filepath.Abs(cwdOr(opts.Cwd))
			if err != nil {
				return memory.Wrap(memory.CodeInvalid, "find the directory to search from", err)
			}
			opts.Cwd = dir
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runTUI(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Cwd, "cwd", "", "directory whose place search starts from (default: the current one)")
	return cmd
}

func runTUI(ctx context.Context, o *TUIOptions) error {
	// The engine first: in remote mode it refuses with the reason.
	eng, err := o.Factory.Engine(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	if !o.IO.IsTTY {
		return memory.Errorf(memory.CodeInvalid, "cairn tui needs a terminal; in a script use cairn notes, search, forget, undo and pin")
	}
	return tui.Run(ctx, eng, tui.Options{Cwd: o.Cwd}, o.IO.In, o.IO.Out)
}
