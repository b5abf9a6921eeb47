package webui

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

func memoryView(d *doc, m memoryData) {
	d.s(`<h1>Memory</h1>
<form class="filters" method="get" action="/ui/" role="search">`)
	d.f(`<label>Search<input type="search" name="q" id="q" value="%s" placeholder="what cairn remembers" size="32"></label>`, m.Query)
	d.s(`<label>Layer<select name="layer" id="layer">`)
	d.options(m.Layer, "", "all layers", "L1", "L1 notes and facts", "L2", "L2 episodes", "L3", "L3 profile", "L0", "L0 transcripts (search only)")
	d.s(`</select></label><label>Category<select name="category"><option value="">any</option>`)
	for _, c := range m.Categories {
		d.f(`<option value="%s"%s>%s</option>`, c, selected(c == m.Category), c)
	}
	d.s(`</select></label>`)
	d.placeSelect("place", m.Place, m.Places, "all places")
	d.f(`<label class="check"><input type="checkbox" name="all" value="1"%s> show forgotten</label>
<button type="submit" class="primary">Show</button>
</form>`, checked(m.All))

	if m.Searched {
		d.f(`<h2 id="results">Search results for “%s”</h2>`, m.Query)
		if len(m.Hits) == 0 {
			d.s(`<p>No memory matches.</p>`)
		} else {
			d.s(`<table aria-describedby="results"><thead><tr><th>Layer</th><th>Text</th><th>Score (rank · lexical · weight)</th><th>Source</th></tr></thead><tbody>`)
			for _, h := range m.Hits {
				d.f(`<tr class="hit"><td>%s <span class="muted">#%s</span></td><td class="text">%s</td><td>%s <span class="muted small">(%s · %s · %s)</span></td><td class="small">`,
					h.Layer, h.ID, clip(h.Text, 400), score(h.Score), score(h.RankScore), score(h.Lexical), score(h.Weight))
				if h.SessionRef != "" {
					d.f(`<a href="/ui/sessions/%s">session %s</a>`, h.SessionID, clip(h.SessionRef, 10))
					if h.TurnSeq > 0 {
						d.f(` turn %s`, h.TurnSeq)
					}
				}
				d.s(`</td></tr>`)
			}
			d.s(`</tbody></table>`)
		}
	}
	if m.Layer == "" || m.Layer == "L1" {
		notesView(d, m)
	}
	if m.Layer == "" || m.Layer == "L2" {
		episodesView(d, m)
	}
	if m.Layer == "" || m.Layer == "L3" {
		d.s(`<h2 id="profile">Profile <span class="muted small">L3</span></h2>`)
		if p := m.Profile; p != nil {
			d.f(`<div class="doc">%s</div><p class="muted small">Built %s from %s notes; forget those notes to change it.</p>`,
				renderMarkdown(p.Body), d.when(p.BuiltAt), len(p.Sources))
		} else {
			d.s(`<p class="muted">No profile yet: it is built from your notes about yourself.</p>`)
		}
	}
}

func notesView(d *doc, m memoryData) {
	d.f(`<h2 id="notes">Notes <span class="muted small">L1 · %s</span></h2>`, len(m.Notes))
	if len(m.Notes) == 0 {
		d.s(`<p class="muted">No notes here.</p>`)
	} else {
		d.s(`<table aria-describedby="notes"><thead><tr><th>#</th><th>Note</th><th>Kind</th><th>Place</th><th>Since</th><th>From</th><th>Actions</th></tr></thead><tbody>`)
		for _, n := range m.Notes {
			d.f(`<tr class="note" id="note-%s" data-id="%s"><td>%s</td><td class="text">%s`, n.ID, n.ID, n.ID, n.Object)
			if n.Pinned {
				d.s(` <span class="tag pin">pinned</span>`)
			}
			if !n.Current() {
				d.f(` <span class="tag gone">%s</span>`, n.Reason)
			}
			kind := string(n.Class)
			if n.Category != "" {
				kind += " · " + n.Category
			}
			d.f(`</td><td class="small">%s<br><span class="tag %s">%s</span></td><td class="small">%s</td><td class="small">%s</td><td class="small">%s<br><span class="muted">%s</span></td><td class="actions">`,
				kind, n.Tier, tierText(n.Tier), scopeText(n.Scope), d.when(n.ValidAt), n.Writer, evidenceText(n.Evidence))
			ref := "/ui/notes/" + itoa(n.ID)
			if n.Current() {
				if n.Pinned {
					d.button(ref+"/unpin", m.Back, "Unpin", "unpin", "")
				} else {
					d.button(ref+"/pin", m.Back, "Pin", "pin", "")
				}
				d.button(ref+"/forget", m.Back, "Forget", "forget", "danger")
				d.f(`<details class="edit"><summary>Edit</summary><form method="post" action="%s/edit">`, ref)
				d.hidden(m.Back)
				d.f(`<label>New wording<textarea name="text" required>%s</textarea></label><button type="submit" name="do" value="save">Save</button></form></details>`, n.Object)
			} else {
				d.button(ref+"/undo", m.Back, "Undo", "undo", "")
			}
			d.s(`</td></tr>`)
		}
		d.s(`</tbody></table>`)
	}
	d.s(`<h2 id="add">Add a note</h2><form class="add" method="post" action="/ui/notes">`)
	d.hidden(m.Back)
	d.s(`<label style="flex:1 1 320px">Note<input type="text" name="text" id="new-note" required placeholder="commit subjects start with the ticket key"></label><label>Class<select name="class">`)
	for _, c := range memory.Classes {
		d.f(`<option%s>%s</option>`, selected(c == memory.ClassPreference), c)
	}
	d.s(`</select></label><label>Category<input type="text" name="category" size="10"></label>`)
	d.placeSelect("place", m.Place, m.Places, "everywhere")
	d.s(`<label class="check"><input type="checkbox" name="pin" value="1"> pin</label>
<button type="submit" class="primary">Remember</button></form>`)
}

func episodesView(d *doc, m memoryData) {
	d.f(`<h2 id="episodes">Episodes <span class="muted small">L2 · %s</span></h2>`, len(m.Episodes))
	if len(m.Episodes) == 0 {
		d.s(`<p class="muted">No episodes yet: they are built from finished turns.</p>`)
		return
	}
	d.s(`<table aria-describedby="episodes"><thead><tr><th>#</th><th>What happened</th><th>Place</th><th>When</th><th>Actions</th></tr></thead><tbody>`)
	for _, e := range m.Episodes {
		d.f(`<tr class="episode" id="episode-%s"><td>e%s</td><td class="text">%s`, e.ID, e.ID, clip(e.Summary, 300))
		if e.Pinned {
			d.s(` <span class="tag pin">pinned</span>`)
		}
		if e.Reason != "" {
			d.f(` <span class="tag gone">%s</span>`, e.Reason)
		}
		d.f(`</td><td class="small">%s</td><td class="small">%s<br><a href="/ui/sessions/%s">session</a></td><td class="actions">`,
			shortPath(e.Place.Worktree), d.when(e.At), e.SessionID)
		ref := "/ui/notes/e" + itoa(e.ID)
		if e.ExpiredAt.IsZero() {
			if e.Pinned {
				d.button(ref+"/unpin", m.Back, "Unpin", "unpin", "")
			} else {
				d.button(ref+"/pin", m.Back, "Pin", "pin", "")
			}
			d.button(ref+"/forget", m.Back, "Forget", "forget", "danger")
		} else {
			d.button(ref+"/undo", m.Back, "Undo", "undo", "")
		}
		d.s(`</td></tr>`)
	}
	d.s(`</tbody></table>`)
}

// placeSelect writes a place menu whose empty choice is labelled none.
func (d *doc) placeSelect(name, cur string, places []placeOpt, none string) {
	d.f(`<label>Place<select name="%s" id="%s"><option value="">%s</option>`, name, name+"-"+strings.ReplaceAll(none, " ", "-"), none)
	for _, p := range places {
		d.f(`<option value="%s"%s>%s</option>`, p.Key, selected(p.Key == cur), p.Label)
	}
	d.s(`</select></label>`)
}
