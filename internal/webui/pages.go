package webui

import (
	"embed"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// The pages are written with a small HTML builder rather than
// html/template: executing any text/template makes the linker keep every
// exported method of every type, which grew the binary by half and slowed
// the start of every hook process that shares it.

//go:embed static
var staticFS embed.FS

// layout is what every page's frame shows.
type layout struct {
	Title string
	// Nav names the screen, for the menu's current item.
	Nav       string
	Err       string
	Flash     string
	Signed    bool
	CSRF      string
	MemoryOff string // why memory is off, when it is
	Account   string
	Version   string
	Zone      *time.Location
}

// doc builds one page. Markup comes only from format strings written in
// this package; every argument is escaped, so no stored text can add
// markup of its own.
type doc struct {
	b strings.Builder
	l layout
}

// f writes markup with each %s replaced by the next argument, escaped
// (or as is, for safeHTML). Any value prints as fmt.Sprint prints it.
func (d *doc) f(markup string, args ...any) {
	for _, a := range args {
		before, after, ok := strings.Cut(markup, "%s")
		if !ok {
			break
		}
		d.b.WriteString(before)
		if h, isHTML := a.(safeHTML); isHTML {
			d.b.WriteString(string(h))
		} else {
			d.b.WriteString(html.EscapeString(fmt.Sprint(a)))
		}
		markup = after
	}
	d.b.WriteString(markup)
}

// s writes literal markup.
func (d *doc) s(markup string) { d.b.WriteString(markup) }

// safeHTML is markup this package built from escaped text (rendered
// Markdown), passed through f unchanged.
type safeHTML string

// hidden writes the form fields every action carries.
func (d *doc) hidden(back string) {
	d.f(`<input type="hidden" name="csrf" value="%s">`, d.l.CSRF)
	if back != "" {
		d.f(`<input type="hidden" name="back" value="%s">`, back)
	}
}

// button writes a one-button form that posts to action.
func (d *doc) button(action, back, label, value, class string) {
	d.f(`<form class="inline" method="post" action="%s">`, action)
	d.hidden(back)
	d.f(`<button type="submit" name="do" value="%s"`, value)
	if class != "" {
		d.f(` class="%s"`, class)
	}
	d.f(`>%s</button></form>`, label)
}

// sel writes the options of a select, marking the current one.
func (d *doc) options(cur string, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		d.f(`<option value="%s"%s>%s</option>`, pairs[i], selected(pairs[i] == cur), pairs[i+1])
	}
}

func selected(b bool) safeHTML {
	if b {
		return " selected"
	}
	return ""
}

func checked(b bool) safeHTML {
	if b {
		return " checked"
	}
	return ""
}

// pages renders the screens by name.
type pages struct{}

func newPages() *pages { return &pages{} }

var views = map[string]func(d *doc, data any){
	"error": func(d *doc, _ any) {
		d.f(`<h1>%s</h1><p><a href="/ui/">Back to memory</a></p>`, d.l.Title)
	},
	"login":    func(d *doc, data any) { loginView(d, data.(loginData)) },
	"memory":   func(d *doc, data any) { memoryView(d, data.(memoryData)) },
	"facts":    func(d *doc, data any) { factsView(d, data.(factsData)) },
	"sessions": func(d *doc, data any) { sessionsView(d, data.(sessionsData)) },
	"session":  func(d *doc, data any) { sessionView(d, data.(sessionData)) },
	"vault":    func(d *doc, data any) { vaultView(d, data.(vaultData)) },
	"settings": func(d *doc, data any) { settingsView(d, data.(settingsData)) },
	"costs":    func(d *doc, data any) { costsView(d, data.(costsData)) },
}

// render writes a whole page.
func (p *pages) render(w http.ResponseWriter, name string, l layout, data any) {
	if l.Zone == nil {
		l.Zone = time.UTC
	}
	d := &doc{l: l}
	d.head()
	views[name](d, data)
	d.foot()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(d.b.String()))
}

var screens = []struct{ nav, path, label string }{
	{"memory", "/ui/", "Memory"}, {"facts", "/ui/facts", "Facts"}, {"sessions", "/ui/sessions", "Sessions"},
	{"vault", "/ui/vault", "Vault"}, {"settings", "/ui/settings", "Settings"}, {"costs", "/ui/costs", "Costs"},
}

func (d *doc) head() {
	d.f(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s · cairn</title>
<link rel="stylesheet" href="/ui/static/app.css">
<script src="/ui/static/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<span class="brand">cairn</span>
`, d.l.Title)
	if d.l.Signed {
		d.s(`<nav aria-label="Screens"><ul>`)
		for i, sc := range screens {
			cur := safeHTML("")
			if sc.nav == d.l.Nav {
				cur = ` aria-current="page"`
			}
			d.f(`<li><a href="%s" accesskey="%s"%s>%s</a></li>`, sc.path, i+1, cur, sc.label)
		}
		d.f(`</ul></nav>
<div class="who"><span>%s</span>
<form class="inline" method="post" action="/ui/logout">`, d.l.Account)
		d.hidden("")
		d.s(`<button type="submit">Sign out</button></form></div>`)
	}
	d.s("</header>\n<main id=\"main\">\n")
	if d.l.MemoryOff != "" {
		d.f(`<p class="banner off" role="status" id="memory-off">%s</p>`, d.l.MemoryOff)
	}
	if d.l.Flash != "" {
		d.f(`<p class="banner done" role="status" id="flash">%s</p>`, d.l.Flash)
	}
	if d.l.Err != "" {
		d.f(`<p class="banner err" role="alert" id="error">%s</p>`, d.l.Err)
	}
}

func (d *doc) foot() {
	d.s(`
<p class="muted small" id="shortcuts" hidden>Shortcuts: <span class="kbd">/</span> search, <span class="kbd">g</span> then <span class="kbd">m</span> memory, <span class="kbd">f</span> facts, <span class="kbd">s</span> sessions, <span class="kbd">v</span> vault, <span class="kbd">t</span> settings, <span class="kbd">c</span> costs. Access keys 1–6 open the screens.</p>
</main>
</body>
</html>`)
}

func loginView(d *doc, ld loginData) {
	d.s(`<h1>Sign in to cairn</h1>`)
	if !ld.Form {
		d.s(`<p>Run <code>cairn ui</code> on this machine: it prints a one-time link that signs you in.</p>`)
		return
	}
	d.f(`<form method="post" action="/ui/login" class="add">
<input type="hidden" name="next" value="%s">
<label>API token<input type="password" name="token" id="token" autocomplete="off" required size="60" placeholder="cairn_…"></label>
<button type="submit" class="primary">Sign in</button>
</form>
<p class="muted">Use a token made with <code>cairn token create --account NAME</code>: you see that account's memory only.</p>`, ld.Next)
}

func staticFiles() http.Handler {
	sub, _ := fs.Sub(staticFS, "static")
	return http.StripPrefix(Prefix+"static/", http.FileServer(http.FS(sub)))
}

// when prints a time in the viewer's zone, to the minute; "—" for none.
func (d *doc) when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(d.l.Zone).Format("2006-01-02 15:04 MST")
}

func scopeText(s memory.Scope) string {
	switch s.Rung {
	case memory.RungNone:
		return "anywhere"
	case memory.RungEverywhere:
		return "everywhere"
	}
	return string(s.Rung) + " " + shortPath(s.Key)
}

func score(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

func usd(f float64) string { return "$" + strconv.FormatFloat(f, 'f', 4, 64) }

func tierText(t memory.Tier) string {
	if t == "" {
		return "untiered"
	}
	return string(t)
}

func evidenceText(ev []memory.Evidence) string {
	var parts []string
	for _, e := range ev {
		switch {
		case e.SessionRef != "" && e.TurnSeq > 0:
			parts = append(parts, "session "+clip(e.SessionRef, 12)+" turn "+strconv.Itoa(e.TurnSeq))
		case e.SessionRef != "":
			parts = append(parts, "session "+clip(e.SessionRef, 12))
		case e.Source != "":
			parts = append(parts, e.Source)
		}
	}
	return strings.Join(parts, "; ")
}

// shortPath keeps the last two elements of a long path.
func shortPath(p string) string {
	parts := strings.Split(strings.TrimRight(p, "/"), "/")
	if len(parts) <= 3 {
		return p
	}
	return "…/" + strings.Join(parts[len(parts)-2:], "/")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
