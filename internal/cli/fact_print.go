package cli

import (
	"fmt"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// statementLine renders one statement on one line.
func statementLine(s memory.Statement) string {
	if s.Kind == memory.KindNote {
		return s.Object
	}
	return s.Subject + " · " + s.Predicate + " = " + s.Object
}

// window renders a row's two clocks.
func window(s memory.Statement) string {
	w := "valid " + day(s.ValidAt) + " → "
	if s.InvalidAt.IsZero() {
		w += "now"
	} else {
		w += day(s.InvalidAt)
	}
	w += " · known " + day(s.CreatedAt)
	if !s.ExpiredAt.IsZero() {
		w += " → " + day(s.ExpiredAt)
	}
	return w
}

func day(t interface{ Format(string) string }) string { return t.Format("2006-01-02 15:04") }

func printFacts(io *IOStreams, v engine.FactsView) {
	w := io.Out
	if len(v.Current) == 0 {
		fmt.Fprintf(w, "no current facts for %s\n", v.Place.Worktree)
	}
	for _, s := range v.Current {
		fmt.Fprintf(w, "#%-5d %s  %s\n", s.ID, statementLine(s), io.Dim(fmt.Sprintf("[%s, %s/%s, %s]", s.Tier, s.Class, s.Scope.Rung, window(s))))
	}
	if len(v.Recent) > 0 {
		fmt.Fprintln(w, io.Bold("recent changes"))
		for _, c := range v.Recent {
			to := "(closed)"
			if c.New != nil {
				to = c.New.Object
			}
			fmt.Fprintf(w, "  %s · %s: %s → %s  %s\n", c.Old.Subject, c.Old.Predicate, c.Old.Object, to, io.Dim("on "+day(c.Old.InvalidAt)))
		}
	}
}

func printRows(o *FactReadOptions, rows []memory.Statement, clock temporal.Clock) error {
	if o.JSON {
		if rows == nil {
			rows = []memory.Statement{}
		}
		return printJSON(o.IO.Out, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(o.IO.Out, "nothing on record")
		return nil
	}
	for _, s := range rows {
		state := "current"
		switch {
		case s.Withdrawn():
			state = string(s.Reason)
		case !s.InvalidAt.IsZero():
			state = "✗ closed"
		}
		fmt.Fprintf(o.IO.Out, "%s  #%-5d %-10s %s  %s\n", day(temporal.At(s, clock)), s.ID, state, statementLine(s), o.IO.Dim(window(s)))
	}
	return nil
}
