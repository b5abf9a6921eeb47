package webui

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

//go:embed templates/*.html
var templateFS embed.FS

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

// view is what a template executes on.
type view struct {
	L layout
	D any
}

// pages parses the templates on first use: a hook process links this
// package and must not pay for it.
type pages struct {
	once sync.Once
	t    *template.Template
	err  error
}

func newPages() *pages { return &pages{} }

func (p *pages) load() (*template.Template, error) {
	p.once.Do(func() {
		p.t, p.err = template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html")
	})
	return p.t, p.err
}

// render writes a whole page, or a plain error when the template fails:
// a half-written page would hide the failure.
func (p *pages) render(w http.ResponseWriter, name string, l layout, data any) {
	t, err := p.load()
	if err == nil {
		var buf bytes.Buffer
		if err = t.ExecuteTemplate(&buf, name, view{L: l, D: data}); err == nil {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = buf.WriteTo(w)
			return
		}
	}
	http.Error(w, "cairn could not render this page: "+err.Error(), http.StatusInternalServerError)
}

func staticFiles() http.Handler {
	sub, _ := fs.Sub(staticFS, "static")
	return http.StripPrefix(Prefix+"static/", http.FileServer(http.FS(sub)))
}

var funcs = template.FuncMap{
	// when prints a time in the viewer's zone, to the minute; "—" for none.
	"when": func(zone *time.Location, t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		if zone == nil {
			zone = time.UTC
		}
		return t.In(zone).Format("2006-01-02 15:04 MST")
	},
	"day": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format("2006-01-02")
	},
	"scope": func(s memory.Scope) string {
		if s.Rung == memory.RungNone {
			return "anywhere"
		}
		if s.Rung == memory.RungEverywhere {
			return "everywhere"
		}
		return string(s.Rung) + " " + shortPath(s.Key)
	},
	"short":   shortPath,
	"clip":    clip,
	"score":   func(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) },
	"usd":     func(f float64) string { return "$" + strconv.FormatFloat(f, 'f', 4, 64) },
	"join":    strings.Join,
	"rungs":   func() []memory.Rung { return memory.Rungs },
	"classes": func() []memory.Class { return memory.Classes },
	"markdown": func(s string) template.HTML {
		return renderMarkdown(s)
	},
	"evidence": func(ev []memory.Evidence) string {
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
	},
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
