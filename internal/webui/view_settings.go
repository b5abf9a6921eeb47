package webui

import "github.com/cairn-memory/cairn/internal/memory"

func settingsView(d *doc, sd settingsData) {
	d.s(`<h1>Settings</h1><form method="post" action="/ui/settings" id="settings">`)
	d.hidden("/ui/settings")
	d.s(`<table><thead><tr><th>Setting</th><th>Value</th><th></th></tr></thead><tbody>`)
	for _, st := range sd.Settings {
		d.f(`<tr><td><label for="s-%s" style="color:inherit;font-size:1em">%s</label>`, st.Key, st.Label)
		if st.Help != "" {
			d.f(`<div class="muted small">%s</div>`, st.Help)
		}
		d.s(`</td><td>`)
		switch st.Kind {
		case "bool":
			d.f(`<input type="checkbox" id="s-%s" name="%s" value="true"%s>`, st.Key, st.Key, checked(st.Value == "true"))
		case "rung":
			d.f(`<select id="s-%s" name="%s">`, st.Key, st.Key)
			for _, r := range memory.Rungs {
				d.f(`<option%s>%s</option>`, selected(string(r) == st.Value), r)
			}
			d.s(`</select>`)
		default:
			typ := "text"
			if st.Kind == "number" {
				typ = "number"
			}
			d.f(`<input type="%s" id="s-%s" name="%s" value="%s" size="14">`, typ, st.Key, st.Key, st.Value)
		}
		src := "from the configuration file"
		if st.Set {
			src = "set here"
		}
		d.f(`</td><td class="muted small">%s</td></tr>`, src)
	}
	d.s(`</tbody></table><button type="submit" class="primary">Save settings</button></form>
<h2 id="presets">Session presets</h2>
<p class="muted small">A preset decides, for one session, whether cairn recalls and learns. The newest sessions:</p>`)
	if len(sd.Sessions) == 0 {
		d.s(`<p class="muted">No sessions yet.</p>`)
		return
	}
	d.s(`<table aria-describedby="presets"><thead><tr><th>Session</th><th>Preset</th></tr></thead><tbody>`)
	for _, s := range sd.Sessions {
		cur := sd.Presets[s.ID]
		d.f(`<tr><td><a href="/ui/sessions/%s">%s %s</a></td><td><form class="inline" method="post" action="/ui/sessions/%s/preset">`,
			s.ID, s.Provider, sessionLabel(s.Session, 50), s.ID)
		d.hidden("/ui/settings")
		d.f(`<select name="preset" aria-label="preset of session %s">`, s.ID)
		for _, p := range sd.Options {
			d.f(`<option value="%s"%s>%s</option>`, p.Value, selected(p.Value == cur), p.Label)
		}
		d.s(`</select> <button type="submit">Apply</button></form></td></tr>`)
	}
	d.s(`</tbody></table>`)
}
