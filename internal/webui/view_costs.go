package webui

func costsView(d *doc, c costsData) {
	d.s(`<h1>Costs</h1>`)
	if c.Off != "" {
		d.f(`<p id="costs-off">%s: model calls made here are not counted.</p>`, c.Off)
		return
	}
	r := c.Report
	d.f(`<p>Model calls of the last %s days: <strong id="total">%s</strong> in all, %s today`, c.Days, usd(r.TotalUSD), usd(r.TodayUSD))
	if r.DailyBudget > 0 {
		d.f(` of a daily budget of %s`, usd(r.DailyBudget))
	}
	d.s(`.</p>`)
	if len(r.Totals) == 0 {
		d.s(`<p class="muted">No model calls: cairn is running without a model (the deterministic default) or has not needed one.</p>`)
		return
	}
	d.s(`<table><thead><tr><th>Phase</th><th>Provider</th><th>Model</th><th>Calls</th><th>Skipped</th><th>Failed</th><th>Tokens in</th><th>Tokens out</th><th>Cost</th></tr></thead><tbody>`)
	for _, t := range r.Totals {
		cost := usd(t.CostUSD)
		if t.Unpriced {
			cost = "unpriced"
		}
		d.f(`<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`,
			t.Phase, t.Provider, t.Model, t.Calls, t.Skipped, t.Failed, t.In, t.Out, cost)
	}
	d.s(`</tbody></table><h2>Calls</h2><table><thead><tr><th>When</th><th>Phase</th><th>Model</th><th>Tokens in/out</th><th>Cost</th><th>Outcome</th></tr></thead><tbody>`)
	for _, k := range r.Calls {
		outcome := k.Status
		if k.Error != "" {
			outcome += ": " + k.Error
		}
		d.f(`<tr><td class="small">%s</td><td>%s</td><td>%s %s</td><td>%s / %s</td><td>%s</td><td class="small">%s</td></tr>`,
			d.when(k.At), k.Phase, k.Provider, k.Model, k.In, k.Out, usd(k.CostUSD), outcome)
	}
	d.s(`</tbody></table>`)
}
