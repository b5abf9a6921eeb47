package webui

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

func sessionsView(d *doc, sd sessionsData) {
	d.s(`<h1>Sessions</h1>`)
	if len(sd.Sessions) == 0 {
		d.s(`<p class="muted">No sessions yet: run <code>cairn import</code> or install the hooks with <code>cairn setup</code>.</p>`)
		return
	}
	d.s(`<table><thead><tr><th>Client</th><th>Session</th><th>Place</th><th>Started</th><th>Turns</th></tr></thead><tbody>`)
	for _, s := range sd.Sessions {
		d.f(`<tr class="session"><td>%s</td><td><a href="/ui/sessions/%s">%s</a></td><td class="small">%s</td><td class="small">%s</td><td>%s</td></tr>`,
			s.Provider, s.ID, sessionLabel(s.Session, 70), shortPath(s.Cwd), d.when(s.StartedAt), s.TurnCount)
	}
	d.s(`</tbody></table>`)
}

func sessionLabel(s memory.Session, n int) string {
	if s.Title != "" {
		return clip(s.Title, n)
	}
	return clip(s.ExternalID, 16)
}

func receiptView(d *doc, r memory.Receipt) {
	d.f(`<details class="receipt"><summary>Memory used: %s block, %s, %s rows, %s tokens</summary>`, r.Kind, r.Status, len(r.Items), r.Tokens)
	if len(r.Items) > 0 {
		d.s(`<table><thead><tr><th>Ref</th><th>Layer</th><th>Section</th><th>Score</th></tr></thead><tbody>`)
		for _, it := range r.Items {
			d.f(`<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`, it.Ref, it.Layer, it.Section, score(it.Score))
		}
		d.s(`</tbody></table>`)
	}
	d.f(`<p class="muted small">The text sent to the agent:</p><pre>%s</pre></details>`, r.Text)
}

func sessionView(d *doc, sd sessionData) {
	s := sd.Session
	title := "Session " + s.ExternalID
	if s.Title != "" {
		title = s.Title
	}
	meta := []string{string(s.Provider), s.Cwd, d.when(s.StartedAt)}
	if s.Model != "" {
		meta = append(meta, s.Model)
	}
	d.f(`<h1>%s</h1><p class="muted">%s</p>`, title, strings.Join(meta, " · "))
	d.f(`<form class="add" method="post" action="/ui/sessions/%s/preset">`, s.ID)
	d.hidden(sd.Back)
	d.s(`<label>Preset of this session<select name="preset" id="preset">`)
	for _, p := range sd.Presets {
		d.f(`<option value="%s"%s>%s</option>`, p.Value, selected(p.Value == sd.Preset), p.Label)
	}
	d.s(`</select></label><button type="submit" class="primary">Apply</button></form>`)
	if len(sd.Loose) > 0 {
		d.s(`<h2>Blocks not tied to a turn</h2>`)
		for _, r := range sd.Loose {
			receiptView(d, r)
		}
	}
	d.s(`<h2>Turns</h2>`)
	if len(sd.Turns) == 0 {
		d.s(`<p class="muted">No turns stored.</p>`)
	}
	for _, t := range sd.Turns {
		d.f(`<section class="turn" id="turn-%s"><h3>Turn %s <span class="muted small">%s · %s</span></h3>`, t.Seq, t.Seq, d.when(t.StartedAt), t.Status)
		for _, r := range t.Receipts {
			receiptView(d, r)
		}
		d.f(`<p><strong>Request</strong></p><pre>%s</pre>`, clip(t.Request, 4000))
		if t.Outcome != "" {
			d.f(`<p><strong>Outcome</strong></p><pre>%s</pre>`, clip(t.Outcome, 4000))
		}
		if len(t.Cited) > 0 {
			d.f(`<p class="small">Cited memory: %s</p>`, strings.Join(t.Cited, ", "))
		}
		d.s(`</section>`)
	}
}
