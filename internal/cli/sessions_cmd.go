package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/spf13/cobra"
)

// SessionsOptions holds `cairn sessions`'s inputs.
type SessionsOptions struct {
	IO      *IOStreams
	Factory *Factory
	Limit   int
	JSON    bool
}

func newSessionsCmd(f *Factory, runF func(context.Context, *SessionsOptions) error) *cobra.Command {
	opts := &SessionsOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List imported sessions with their counts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSessions(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVarP(&opts.Limit, "limit", "n", 50, "show at most this many (0 = all)")
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

func runSessions(ctx context.Context, o *SessionsOptions) error {
	eng, err := o.Factory.Memory(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	list, err := eng.Sessions(ctx, o.Limit)
	if err != nil {
		return err
	}
	if o.JSON {
		if list == nil {
			list = []memory.SessionSummary{}
		}
		return printJSON(o.IO.Out, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(o.IO.Out, "no sessions yet; run `cairn import --claude-code` (or --codex, --opencode)")
		return nil
	}
	t := &table{}
	t.add("ID", "CLIENT", "STARTED", "TURNS", "PARTS", "PLACE", "SESSION")
	for _, s := range list {
		ext := s.ExternalID
		if s.Subagent {
			ext += " (subagent)"
		}
		t.add(fmt.Sprint(s.ID), string(s.Provider), when(s.StartedAt), fmt.Sprint(s.TurnCount), fmt.Sprint(s.PartCount), s.Place.Worktree, ext)
	}
	t.print(o.IO.Out)
	return nil
}

// ShowOptions holds `cairn show`'s inputs.
type ShowOptions struct {
	IO      *IOStreams
	Factory *Factory
	Ref     string
	Parts   bool
	JSON    bool
}

func newShowCmd(f *Factory, runF func(context.Context, *ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "show SESSION",
		Short: "Print a session's turns (redacted text)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runShow(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Parts, "parts", false, "print every part (tool calls and results too)")
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

func runShow(ctx context.Context, o *ShowOptions) error {
	eng, err := o.Factory.Memory(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	s, err := eng.Session(ctx, o.Ref)
	if err != nil {
		return err
	}
	if o.JSON {
		return printJSON(o.IO.Out, s)
	}
	w := o.IO.Out
	fmt.Fprintf(w, "%s %d · %s · %s\n", o.IO.Bold("session"), s.ID, s.Provider, s.ExternalID)
	if s.Title != "" {
		fmt.Fprintf(w, "title    %s\n", s.Title)
	}
	fmt.Fprintf(w, "place    %s\n", s.Place.Worktree)
	fmt.Fprintf(w, "time     %s – %s\n", when(s.StartedAt), when(s.EndedAt))
	for _, t := range s.Turns {
		fmt.Fprintf(w, "\n%s %s %s", o.IO.Bold(fmt.Sprintf("#%d", t.Seq)), when(t.StartedAt), t.Status)
		if f := t.Flags.String(); f != "" {
			fmt.Fprintf(w, " [%s]", f)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, indent("user: ", t.Request))
		if t.Outcome != "" {
			fmt.Fprintln(w, indent("answer: ", t.Outcome))
		}
		if o.Parts {
			for _, p := range t.Parts {
				label := string(p.Role) + "/" + string(p.Kind)
				if p.Tool != "" {
					label += "(" + p.Tool + ")"
				}
				fmt.Fprintln(w, o.IO.Dim(indent(fmt.Sprintf("  %d %s: ", p.Seq, label), p.Text)))
			}
		}
	}
	return nil
}

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04")
}

// indent prefixes the first line and aligns the rest under it.
func indent(prefix, s string) string {
	pad := strings.Repeat(" ", len([]rune(prefix)))
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
