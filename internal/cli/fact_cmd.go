package cli

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
	"github.com/spf13/cobra"
)

func newFactCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fact",
		Short: "Facts with two clocks: assert, query, timeline, as-of, retract, reopen, move, export",
		Long: `Facts are subject–predicate–object statements with two clocks: when they
were true (valid_at … invalid_at) and when cairn believed them (created_at …
expired_at). A new value in a one-value slot closes the old one at the new
one's valid_at; nothing is deleted.`,
	}
	cmd.AddCommand(newFactAssertCmd(f), newFactQueryCmd(f), newFactTimelineCmd(f), newFactAsOfCmd(f),
		newFactRetractCmd(f), newFactReopenCmd(f), newFactMoveCmd(f), newFactRestoreCmd(f), newFactExportCmd(f))
	return cmd
}

// FactAssertOptions holds `cairn fact assert`'s inputs.
type FactAssertOptions struct {
	IO                         *IOStreams
	Factory                    *Factory
	Subject, Predicate, Object string
	ValidAt, Tier, Class, Cat  string
	Place, Cwd                 string
	Many, Event                bool
	JSON                       bool
}

func newFactAssertCmd(f *Factory) *cobra.Command {
	o := &FactAssertOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "assert SUBJECT PREDICATE OBJECT",
		Short: "State a fact (asserted: you said it)",
		Example: `  cairn fact assert production deploy_target "Render, Oregon region"
  cairn fact assert project ci Buildkite --valid-at 2026-06-01 --class environment
  cairn fact assert user name "Selin" --class user`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Subject, o.Predicate, o.Object = args[0], args[1], args[2]
			return runFactAssert(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.ValidAt, "valid-at", "", "when it became true (default: now)")
	cmd.Flags().StringVar(&o.Tier, "tier", "", "claim a lower tier: observed or inferred")
	cmd.Flags().StringVar(&o.Class, "class", "", "user, preference, convention, decision, environment or task (sets the default place)")
	cmd.Flags().StringVar(&o.Cat, "category", "", "a short category, e.g. git, port, style")
	cmd.Flags().StringVar(&o.Place, "place", "", "where it applies: worktree, project, repo or everywhere (default: from the class)")
	cmd.Flags().StringVar(&o.Cwd, "cwd", "", "directory it is about (default: the current one)")
	cmd.Flags().BoolVar(&o.Many, "many", false, "the slot holds many values (a new one does not replace the old)")
	cmd.Flags().BoolVar(&o.Event, "event", false, "record an event (never replaces anything)")
	addJSONFlag(cmd, &o.JSON)
	return cmd
}

func runFactAssert(ctx context.Context, o *FactAssertOptions) error {
	eng, err := o.Factory.Memory(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	d := memory.Draft{Kind: memory.KindFact, Subject: o.Subject, Predicate: o.Predicate, Object: o.Object,
		Class: memory.Class(o.Class), Category: o.Cat, Evidence: memory.Evidence{Source: "cli"}}
	if o.Event {
		d.Kind = memory.KindEvent
	}
	if o.Many {
		d.Cardinality = memory.Many
	}
	if d.ValidAt, err = parseWhen(o.ValidAt, time.Now()); err != nil {
		return err
	}
	if d.Rung, err = memory.ParseRung(o.Place); err != nil {
		return err
	}
	w := engine.Write{Draft: d, Writer: memory.WriterCLI, Cwd: cwdOr(o.Cwd)}
	if o.Tier != "" {
		t := memory.Tier(o.Tier)
		if t.Rank() == 0 {
			return memory.Errorf(memory.CodeInvalid, "unknown tier %q: use asserted, observed or inferred", o.Tier)
		}
		w.Tier, w.TierSet = t, true
	}
	res, err := eng.Write(ctx, w)
	if err != nil {
		return err
	}
	if o.JSON {
		return printJSON(o.IO.Out, res)
	}
	s := res.Statement
	fmt.Fprintf(o.IO.Out, "%s #%d %s · %s = %s (%s, %s, %s)\n", res.Action, s.ID, s.Subject, s.Predicate, s.Object, s.Tier, s.Scope.Rung, s.Cardinality)
	return nil
}

// FactReadOptions holds the read commands' common inputs.
type FactReadOptions struct {
	IO           *IOStreams
	Factory      *Factory
	Cwd, Place   string
	Strict, All  bool
	Clock        string
	Since, Until string
	At           string
	JSON         bool
}

func (o *FactReadOptions) query() (engine.FactQuery, error) {
	q := engine.FactQuery{Cwd: cwdOr(o.Cwd), Strict: o.Strict, Everywhere: o.All}
	r, err := memory.ParseRung(o.Place)
	q.Rung = r
	return q, err
}

func addPlaceFlags(cmd *cobra.Command, o *FactReadOptions, all bool) {
	cmd.Flags().StringVar(&o.Cwd, "cwd", "", "directory whose place is read (default: the current one)")
	cmd.Flags().StringVar(&o.Place, "place", "", "read up to this rung: worktree, project, repo or everywhere (default: everywhere)")
	cmd.Flags().BoolVar(&o.Strict, "strict", false, "read only the --place rung itself")
	cmd.Flags().BoolVar(&o.All, "all-places", all, "read every place, not only this directory's")
	addJSONFlag(cmd, &o.JSON)
}

func newFactQueryCmd(f *Factory) *cobra.Command {
	o := &FactReadOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "query",
		Short: "Current facts for a place, and what changed lately",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			q, err := o.query()
			if err != nil {
				return err
			}
			eng, err := o.Factory.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			v, err := eng.Facts(cmd.Context(), q)
			if err != nil {
				return err
			}
			if o.JSON {
				// Empty lists print as [], as the gateway sends them.
				if v.Current == nil {
					v.Current = []memory.Statement{}
				}
				if v.Recent == nil {
					v.Recent = []engine.Change{}
				}
				return printJSON(o.IO.Out, v)
			}
			printFacts(o.IO, v)
			return nil
		},
	}
	addPlaceFlags(cmd, o, false)
	return cmd
}

func newFactTimelineCmd(f *Factory) *cobra.Command {
	o := &FactReadOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "timeline",
		Short: "Statements in time order, on the world clock (when true) or the system clock (when known)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			clock, err := temporal.ParseClock(o.Clock)
			if err != nil {
				return err
			}
			since, err := parseWhen(o.Since, time.Now())
			if err != nil {
				return err
			}
			until, err := parseWhen(o.Until, time.Now())
			if err != nil {
				return err
			}
			q, err := o.query()
			if err != nil {
				return err
			}
			eng, err := o.Factory.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			rows, err := eng.Timeline(cmd.Context(), q, clock, since, until)
			if err != nil {
				return err
			}
			return printRows(o, rows, clock)
		},
	}
	cmd.Flags().StringVar(&o.Clock, "clock", "world", "world (valid_at) or system (created_at)")
	cmd.Flags().StringVar(&o.Since, "since", "", "from this time (inclusive)")
	cmd.Flags().StringVar(&o.Until, "until", "", "up to this time (exclusive)")
	addPlaceFlags(cmd, o, true)
	return cmd
}

func newFactAsOfCmd(f *Factory) *cobra.Command {
	o := &FactReadOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "asof TIME",
		Short: "The store as it stood at TIME: what was true (world) or what cairn believed (system)",
		Example: `  cairn fact asof 2026-05-15
  cairn fact asof "2026-05-15 09:00" --clock system`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			clock, err := temporal.ParseClock(o.Clock)
			if err != nil {
				return err
			}
			at, err := parseWhen(args[0], time.Now())
			if err != nil {
				return err
			}
			q, err := o.query()
			if err != nil {
				return err
			}
			eng, err := o.Factory.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			rows, err := eng.AsOf(cmd.Context(), q, at, clock)
			if err != nil {
				return err
			}
			return printRows(o, rows, clock)
		},
	}
	cmd.Flags().StringVar(&o.Clock, "clock", "world", "world (what was true) or system (what cairn believed)")
	addPlaceFlags(cmd, o, true)
	return cmd
}

func newFactRetractCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "retract ID",
		Short: "Take a fact back (kept as history; undo with reopen)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return changeStatement(cmd.Context(), f, args[0], asJSON, "retracted", func(ctx context.Context, eng Memory, id int64) (memory.Statement, error) {
				return eng.Retract(ctx, id)
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func newFactReopenCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "reopen ID",
		Short: "Make a closed or retracted fact current again",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return changeStatement(cmd.Context(), f, args[0], asJSON, "reopened", func(ctx context.Context, eng Memory, id int64) (memory.Statement, error) {
				return eng.Reopen(ctx, id)
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func newFactRestoreCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "restore ID",
		Short: "Bring back a fact held back after refused turns",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return changeStatement(cmd.Context(), f, args[0], asJSON, "restored", func(ctx context.Context, eng Memory, id int64) (memory.Statement, error) {
				return eng.Reopen(ctx, id)
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func newFactExportCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "export",
		Short: "Every statement, with both clocks and evidence, as JSON lines",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := f.Memory(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			_, err = eng.Export(cmd.Context(), f.IO.Out)
			return err
		},
	}
}

// changeStatement parses an id, applies a change and reports it.
func changeStatement(ctx context.Context, f *Factory, arg string, asJSON bool, verb string,
	change func(context.Context, Memory, int64) (memory.Statement, error)) error {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		return memory.Errorf(memory.CodeInvalid, "%q is not a statement id; ids are the numbers `cairn fact query` shows", arg)
	}
	eng, err := f.Memory(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	s, err := change(ctx, eng, id)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(f.IO.Out, s)
	}
	fmt.Fprintf(f.IO.Out, "%s #%d %s\n", verb, s.ID, statementLine(s))
	return nil
}

func cwdOr(dir string) string {
	if dir != "" {
		return dir
	}
	wd, _ := os.Getwd()
	return wd
}
