package cli

import (
	"context"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

func newEditCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "edit ID TEXT…",
		Short: "Reword a note: the new wording replaces it, the old one stays as history",
		Long: `edit replaces a current note's wording. The new note keeps the old one's
class, category, pin, place and evidence, so it is still traced to the turn it
came from; the old wording is closed as superseded, not deleted.`,
		Example: `  cairn edit 12 "commit subjects start with the Jira key, e.g. PAY-1432"`,
		Args:    cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return changeStatement(cmd.Context(), f, strings.TrimPrefix(args[0], "n"), asJSON, "edited: now", func(ctx context.Context, eng Memory, id int64) (memory.Statement, error) {
				return eng.EditNote(ctx, id, strings.Join(args[1:], " "))
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func newFactMoveCmd(f *Factory) *cobra.Command {
	var asJSON bool
	var cwd string
	cmd := &cobra.Command{
		Use:   "move ID worktree|project|repo|everywhere",
		Short: "Place a fact or note at another rung of this place's ladder (changes what agents here read)",
		Long: `move copies a current fact or note to another rung of the ladder of the
place holding --cwd (worktree ⊂ project ⊂ repo ⊂ everywhere), keeping both of
its clocks, and closes the old row as moved. Agents read it from there from
their next turn. Rows of categories that stay within a project cannot move
wider.`,
		Example: `  cairn fact move 7 project
  cairn fact move 7 everywhere --cwd ~/src/shop`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			rung, err := memory.ParseRung(args[1])
			if err != nil || rung == memory.RungNone {
				return memory.Errorf(memory.CodeInvalid, "%q is not a rung: use worktree, project, repo or everywhere", args[1])
			}
			return changeStatement(cmd.Context(), f, args[0], asJSON, "moved: now", func(ctx context.Context, eng Memory, id int64) (memory.Statement, error) {
				return eng.MoveFactFrom(ctx, id, cwdOr(cwd), rung)
			})
		},
	}
	cmd.Flags().StringVar(&cwd, "cwd", "", "directory whose place's ladder the row moves on (default: the current directory)")
	addJSONFlag(cmd, &asJSON)
	return cmd
}
