package webui

import (
	"net/url"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

func factCells(d *doc, st memory.Statement) {
	d.f(`<td>%s</td><td><strong>%s</strong> %s</td><td class="text">%s</td>`, st.ID, st.Subject, st.Predicate, st.Object)
}

func factsView(d *doc, f factsData) {
	d.s(`<h1>Facts</h1><form class="filters" method="get" action="/ui/facts"><label>Place<select name="place" id="place">`)
	d.f(`<option value=""%s>all places</option>`, selected(!f.Placed))
	for _, p := range f.Places {
		d.f(`<option value="%s"%s>%s</option>`, p.Key, selected(p.Key == f.Place), p.Label)
	}
	d.s(`</select></label><label>Clock<select name="clock">`)
	d.options(f.Clock, "world", "world: when it was true", "system", "system: when cairn believed it")
	d.f(`</select></label><label>As of<input type="text" name="asof" id="asof" value="%s" placeholder="2026-05-14" size="16"></label>`, f.AsOfText)
	if f.Slot != "" {
		d.f(`<input type="hidden" name="slot" value="%s">`, f.Slot)
	}
	d.s(`<button type="submit" class="primary">Show</button></form>`)

	if f.AsOfSet {
		d.f(`<h2 id="asof-h">As of %s <span class="muted small">%s clock</span></h2>`, f.AsOfText, f.Clock)
		if len(f.AsOf) == 0 {
			d.s(`<p>Nothing was true or held then.</p>`)
		} else {
			d.s(`<table aria-describedby="asof-h" id="asof-table"><thead><tr><th>#</th><th>Slot</th><th>Value</th><th>Valid</th><th>Place</th></tr></thead><tbody>`)
			for _, st := range f.AsOf {
				d.s(`<tr>`)
				factCells(d, st)
				d.f(`<td class="small">%s → %s</td><td class="small">%s</td></tr>`, d.when(st.ValidAt), d.when(st.InvalidAt), scopeText(st.Scope))
			}
			d.s(`</tbody></table>`)
		}
	}

	d.s(`<h2 id="current">Current`)
	if f.Placed {
		d.f(` <span class="muted small">seen from %s</span>`, shortPath(f.Place))
	}
	d.s(`</h2>`)
	if len(f.View.Current) == 0 {
		d.s(`<p class="muted">No current facts here.</p>`)
	} else {
		d.s(`<table aria-describedby="current"><thead><tr><th>#</th><th>Slot</th><th>Value</th><th>Since</th><th>Tier</th><th>Place</th><th>Actions</th></tr></thead><tbody>`)
		for _, st := range f.View.Current {
			d.f(`<tr class="fact" id="fact-%s">`, st.ID)
			factCells(d, st)
			d.f(`<td class="small">%s</td><td><span class="tag %s">%s</span></td><td class="small">%s</td><td class="actions">`,
				d.when(st.ValidAt), st.Tier, tierText(st.Tier), scopeText(st.Scope))
			q := url.Values{"place": {f.Place}, "slot": {st.Subject + " " + st.Predicate}}
			d.f(`<a href="/ui/facts?%s">timeline</a> `, q.Encode())
			act := "/ui/facts/" + itoa(st.ID)
			if f.Placed {
				d.f(`<form class="inline" method="post" action="%s/move">`, act)
				d.hidden(f.Back)
				d.f(`<input type="hidden" name="place" value="%s"><label class="check">Move to <select name="rung" aria-label="rung for fact %s">`, f.Place, st.ID)
				for _, r := range memory.Rungs {
					d.f(`<option%s>%s</option>`, selected(r == st.Scope.Rung), r)
				}
				d.s(`</select></label><button type="submit">Move</button></form> `)
			}
			d.button(act+"/retract", f.Back, "Retract", "retract", "danger")
			d.s(`</td></tr>`)
		}
		d.s(`</tbody></table>`)
		if !f.Placed {
			d.s(`<p class="muted small">Choose a place to move facts along its ladder (worktree ⊂ project ⊂ repo ⊂ everywhere).</p>`)
		}
	}

	if len(f.View.Recent) > 0 {
		d.s(`<h2 id="recent">Recent changes</h2><ul>`)
		for _, c := range f.View.Recent {
			d.f(`<li><strong>%s %s</strong>: <del>%s</del> (%s)`, c.Old.Subject, c.Old.Predicate, c.Old.Object, c.Old.Reason)
			if c.New != nil {
				d.f(` → %s <span class="muted small">since %s</span>`, c.New.Object, d.when(c.New.ValidAt))
			}
			d.s(`</li>`)
		}
		d.s(`</ul>`)
	}

	d.s(`<h2 id="timeline">Timeline `)
	if f.Slot != "" {
		q := url.Values{"place": {f.Place}, "clock": {f.Clock}}
		d.f(`of %s <a class="small" href="/ui/facts?%s">(all slots)</a> `, f.Slot, q.Encode())
	}
	d.f(`<span class="muted small">%s clock</span></h2>`, f.Clock)
	if len(f.Timeline) == 0 {
		d.s(`<p class="muted">No history yet.</p>`)
		return
	}
	d.s(`<table aria-describedby="timeline"><thead><tr><th>#</th><th>Slot</th><th>Value</th><th>True (world)</th><th>Believed (system)</th><th>Ended because</th><th></th></tr></thead><tbody>`)
	for _, st := range f.Timeline {
		d.s(`<tr class="timeline-row">`)
		factCells(d, st)
		d.f(`<td class="small">%s → %s</td><td class="small">%s → %s</td><td class="small">`,
			d.when(st.ValidAt), orNow(d, st.InvalidAt), d.when(st.CreatedAt), orNow(d, st.ExpiredAt))
		switch {
		case st.Reason == "":
			d.s(`<span class="muted">current</span>`)
		case st.ReplacedBy != 0:
			d.f(`%s by #%s`, st.Reason, st.ReplacedBy)
		default:
			d.f(`%s`, st.Reason)
		}
		d.s(`</td><td>`)
		if !st.Current() && st.Reason != memory.ReasonMoved && st.Reason != memory.ReasonRevised {
			d.button("/ui/facts/"+itoa(st.ID)+"/reopen", f.Back, "Reopen", "reopen", "")
		}
		d.s(`</td></tr>`)
	}
	d.s(`</tbody></table>`)
}

func orNow(d *doc, t time.Time) string {
	if t.IsZero() {
		return "now"
	}
	return d.when(t)
}
