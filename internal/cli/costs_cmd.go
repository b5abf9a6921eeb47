package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-memory/cairn/internal/model"
)

// CostsOptions holds `cairn costs`'s inputs.
type CostsOptions struct {
	IO      *IOStreams
	Factory *Factory
	Since   string
	Calls   bool
	JSON    bool
	Now     func() time.Time
}

func newCostsCmd(f *Factory, runF func(context.Context, *CostsOptions) error) *cobra.Command {
	opts := &CostsOptions{IO: f.IO, Factory: f, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "costs",
		Short: "Show the model calls cairn made: tokens, time and estimated cost",
		Long: `Every call cairn makes to a model (extraction, consolidation, turn facts) is
recorded with its provider, model, tokens in and out, duration and estimated
cost (from the price table: models.prices over the built-in one). Calls
skipped because the daily budget (models.daily_budget_usd) was spent are
listed too; that work is retried the next day.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runCosts(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Since, "since", "-30d", "calls made since this time (2026-05-01, -7d, …)")
	cmd.Flags().BoolVar(&opts.Calls, "calls", false, "list every call, not only the totals")
	addJSONFlag(cmd, &opts.JSON)
	return cmd
}

func runCosts(ctx context.Context, o *CostsOptions) error {
	since, err := parseWhen(o.Since, o.Now())
	if err != nil {
		return err
	}
	eng, err := o.Factory.Engine(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	rep, err := eng.Costs(ctx, since)
	if err != nil {
		return err
	}
	if o.JSON {
		if rep.Calls == nil {
			rep.Calls = []model.CallRecord{}
		}
		return printJSON(o.IO.Out, rep)
	}
	w := o.IO.Out
	if len(rep.Calls) == 0 {
		fmt.Fprintf(w, "no model calls since %s (models are set with models.extraction, models.consolidation and models.turn_facts)\n", when(since))
		return nil
	}
	t := &table{}
	t.add("PHASE", "PROVIDER", "MODEL", "CALLS", "SKIPPED", "FAILED", "TOKENS IN", "TOKENS OUT", "COST (USD)")
	for _, x := range rep.Totals {
		cost := fmt.Sprintf("%.4f", x.CostUSD)
		if x.Unpriced {
			cost += " (unpriced)"
		}
		t.add(x.Phase, x.Provider, x.Model, fmt.Sprint(x.Calls), fmt.Sprint(x.Skipped), fmt.Sprint(x.Failed),
			fmt.Sprint(x.In), fmt.Sprint(x.Out), cost)
	}
	t.print(w)
	fmt.Fprintf(w, "\ntotal since %s: $%.4f (estimated); today: $%.4f", when(since), rep.TotalUSD, rep.TodayUSD)
	if rep.DailyBudget > 0 {
		fmt.Fprintf(w, " of a $%.2f daily budget", rep.DailyBudget)
	}
	fmt.Fprintln(w)
	if o.Calls {
		fmt.Fprintln(w)
		c := &table{}
		c.add("AT", "PHASE", "PROVIDER", "MODEL", "STATUS", "IN", "OUT", "TOOK", "COST", "ERROR")
		for _, x := range rep.Calls {
			c.add(when(x.At), x.Phase, x.Provider, x.Model, x.Status, fmt.Sprint(x.In), fmt.Sprint(x.Out),
				x.Took.Round(time.Millisecond).String(), fmt.Sprintf("%.4f", x.CostUSD), x.Error)
		}
		c.print(w)
	}
	return nil
}
