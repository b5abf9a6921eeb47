package cli

import (
	"context"
	"fmt"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

func newRememberCmd(f *Factory) *cobra.Command {
	var category, class, cwd string
	var pin, asJSON bool
	cmd := &cobra.Command{
		Use:   "remember TEXT",
		Short: "Remember a note now, in your words (asserted)",
		Example: `  cairn remember "always run the tests before committing" --category testing
  cairn remember "the staging DB is read-only on Fridays" --class environment --pin`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := f.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			res, err := eng.Remember(cmd.Context(), joinArgs(args), category, memory.Class(class), pin, cwdOr(cwd))
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, res)
			}
			verb := "remembered"
			if res.Action == "restate" {
				verb = "already remembered (reinforced)"
			}
			fmt.Fprintf(f.IO.Out, "%s #%d %s (%s, %s)\n", verb, res.Statement.ID, res.Statement.Object, res.Statement.Class, res.Statement.Scope.Rung)
			return nil
		},
	}
	cmd.Flags().StringVar(&category, "category", "", "a short category, e.g. testing, git, style")
	cmd.Flags().StringVar(&class, "class", "", "user, preference (default), convention, decision, environment or task")
	cmd.Flags().StringVar(&cwd, "cwd", "", "directory it is about (default: the current one)")
	cmd.Flags().BoolVar(&pin, "pin", false, "pin it: considered first, kept under tight budgets")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

// refCmd builds forget, undo, pin and unpin: one id, one change.
func refCmd(f *Factory, use, short, verb string, change func(context.Context, Memory, engine.Ref) (any, error)) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   use + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := engine.ParseRef(args[0])
			if err != nil {
				return err
			}
			eng, err := f.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			row, err := change(cmd.Context(), eng, r)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, row)
			}
			fmt.Fprintf(f.IO.Out, "%s %s\n", verb, args[0])
			return nil
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func newForgetCmd(f *Factory) *cobra.Command {
	return refCmd(f, "forget", "Deactivate a note, fact or episode (e12); undo brings it back", "forgot", func(ctx context.Context, e Memory, r engine.Ref) (any, error) {
		return e.Forget(ctx, r)
	})
}

func newUndoCmd(f *Factory) *cobra.Command {
	return refCmd(f, "undo", "Reactivate a forgotten note, fact or episode", "restored", func(ctx context.Context, e Memory, r engine.Ref) (any, error) {
		return e.Undo(ctx, r)
	})
}

func newPinCmd(f *Factory) *cobra.Command {
	return refCmd(f, "pin", "Pin a note, fact or episode: considered first", "pinned", func(ctx context.Context, e Memory, r engine.Ref) (any, error) {
		return e.Pin(ctx, r, true)
	})
}

func newUnpinCmd(f *Factory) *cobra.Command {
	return refCmd(f, "unpin", "Unpin a note, fact or episode", "unpinned", func(ctx context.Context, e Memory, r engine.Ref) (any, error) {
		return e.Pin(ctx, r, false)
	})
}

func newNotesCmd(f *Factory) *cobra.Command {
	var all, episodes, asJSON bool
	cmd := &cobra.Command{
		Use:   "notes",
		Short: "List L1 notes (and L2 episodes, and the L3 profile)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := f.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			v, err := eng.Notes(cmd.Context(), all, episodes)
			if err != nil {
				return err
			}
			if asJSON {
				if v.Notes == nil {
					v.Notes = []memory.Statement{}
				}
				return printJSON(f.IO.Out, v)
			}
			printNotes(f.IO, v)
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "include forgotten and closed rows")
	cmd.Flags().BoolVar(&episodes, "episodes", false, "list L2 episodes too")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func printNotes(io *IOStreams, v engine.NotesView) {
	w := io.Out
	if len(v.Notes) == 0 {
		fmt.Fprintln(w, "no notes yet: cairn learns them from your sessions, or `cairn remember \"…\"`")
	}
	for _, n := range v.Notes {
		mark := " "
		if n.Pinned {
			mark = "📌"
		}
		state := ""
		if !n.Current() {
			state = " [" + orReason(n.Reason) + "]"
		}
		fmt.Fprintf(w, "%s #%-5d %s%s  %s\n", mark, n.ID, n.Object, state, io.Dim(fmt.Sprintf("(%s %s, %s, %s, conf %.2f)", n.Tier, n.Class, n.Category, n.Scope.Rung, n.Confidence)))
	}
	if len(v.Episodes) > 0 {
		fmt.Fprintln(w, io.Bold("episodes"))
		for _, e := range v.Episodes {
			fmt.Fprintf(w, "  e%-5d %s %s\n", e.ID, when(e.At), snippet(e.Summary, 160))
		}
	}
	if v.Profile != nil {
		fmt.Fprintln(w, io.Bold("profile")+io.Dim(" (L3, built from the notes above; inspect only)"))
		fmt.Fprintln(w, indent("  ", v.Profile.Body))
	}
}

func orReason(r memory.Reason) string {
	if r == "" {
		return "closed"
	}
	return string(r)
}

func newMaintainCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "maintain",
		Short: "Run the maintenance pass now: promote due candidates, rebuild the profile, apply caps",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := f.Engine(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			rep, err := eng.Maintain(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, rep)
			}
			fmt.Fprintf(f.IO.Out, "promoted %d, merged %d, dropped %d, episodes capped %d, profile %v\n", rep.Promoted, rep.Merged, rep.Dropped, rep.Capped, rep.Profile)
			return nil
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func joinArgs(args []string) string {
	out := ""
	for i, a := range args {
		if i > 0 {
			out += " "
		}
		out += a
	}
	return out
}
