package webui

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// routes declares every page and action in one place. Actions are POSTs
// of plain forms that redirect back (so reading and acting both work
// without JavaScript); each carries the session's CSRF token.
func (s *Server) routes() {
	s.mux = http.NewServeMux()
	s.mux.Handle("GET "+Prefix+"static/", staticFiles())
	// `cairn ui` serves the pages alone: its root and /ui lead to them.
	toPages := http.RedirectHandler(Prefix, http.StatusSeeOther)
	s.mux.Handle("GET /{$}", toPages)
	s.mux.Handle("GET "+strings.TrimSuffix(Prefix, "/"), toPages)
	s.mux.HandleFunc("GET "+Prefix+"login", s.loginPage)
	s.mux.HandleFunc("POST "+Prefix+"login", s.login)
	s.handle("POST "+Prefix+"logout", s.logout)

	s.handle("GET "+Prefix+"{$}", s.memoryPage)
	s.handle("POST "+Prefix+"notes", s.addNote)
	s.handle("POST "+Prefix+"notes/{ref}/{action}", s.noteAction)

	s.handle("GET "+Prefix+"facts", s.factsPage)
	s.handle("POST "+Prefix+"facts/{id}/{action}", s.factAction)

	s.handle("GET "+Prefix+"sessions", s.sessionsPage)
	s.handle("GET "+Prefix+"sessions/{id}", s.sessionPage)
	s.handle("POST "+Prefix+"sessions/{id}/preset", s.setPreset)

	s.handle("GET "+Prefix+"vault", s.vaultPage)
	s.handle("GET "+Prefix+"settings", s.settingsPage)
	s.handle("POST "+Prefix+"settings", s.saveSettings)
	s.handle("GET "+Prefix+"costs", s.costsPage)
}

// frame builds the page frame: the zone times are shown in, and whether
// memory is off.
func (s *Server) frame(ctx context.Context, v *visit, title, nav string) layout {
	l := layout{Title: title, Nav: nav, Signed: true, CSRF: v.sess.csrf, Version: s.o.Version,
		Account: v.sess.token.Name, Zone: time.UTC}
	l.Flash, l.Err = v.sess.takeFlash()
	cfg, _, err := v.eng.Effective(ctx)
	if err == nil {
		if z, err := time.LoadLocation(cfg.Recall.TimeZone); err == nil {
			l.Zone = z
		}
	}
	sw := cfg.Memory
	switch {
	case err != nil:
		l.MemoryOff = "cairn could not read its switches: " + message(err)
	case !sw.Enabled:
		l.MemoryOff = "Memory is off: nothing is recalled or learned. Turn it on under Settings."
	case !sw.Recall && !sw.Capture:
		l.MemoryOff = "Memory is off: recall and learning are both switched off under Settings."
	case !sw.Recall:
		l.MemoryOff = "Recall is off: agents are shown nothing from memory. Learning continues."
	case !sw.Capture:
		l.MemoryOff = "Learning is off: nothing new is remembered. Recall continues."
	}
	return l
}

// done redirects back to the page the form came from, with the outcome
// kept for that page to show once.
func (s *Server) done(w http.ResponseWriter, r *http.Request, v *visit, msg string, err error) error {
	if err != nil {
		if memory.ErrorCode(err) == memory.CodeInternal {
			return err
		}
		v.sess.setFlash("", message(err))
	} else {
		v.sess.setFlash(msg, "")
	}
	http.Redirect(w, r, safeNext(r.PostForm.Get("back")), http.StatusSeeOther)
	return nil
}

// placeOpt is a place people have worked in, for the place menus.
type placeOpt struct {
	Key   string // the worktree
	Label string
	Place memory.Place
}

// knownPlaces lists the places of recent sessions, newest first.
func knownPlaces(ctx context.Context, eng Engine) ([]placeOpt, error) {
	ss, err := eng.Sessions(ctx, 200)
	if err != nil {
		return nil, err
	}
	var out []placeOpt
	for _, s := range ss {
		if s.Place.Worktree == "" || slices.ContainsFunc(out, func(o placeOpt) bool { return o.Key == s.Place.Worktree }) {
			continue
		}
		out = append(out, placeOpt{Key: s.Place.Worktree, Label: shortPath(s.Place.Worktree), Place: s.Place})
	}
	return out, nil
}

// pickPlace finds the chosen place; ok is false for "all places".
func pickPlace(places []placeOpt, key string) (memory.Place, bool) {
	for _, p := range places {
		if p.Key == key {
			return p.Place, true
		}
	}
	return memory.Place{}, false
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request, v *visit) error {
	s.auth.end(v.sess.id)
	clearCookie(w, r)
	http.Redirect(w, r, Prefix+"login?done="+url.QueryEscape("signed out"), http.StatusSeeOther)
	return nil
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if c := q.Get("code"); c != "" {
		sess, err := s.auth.redeem(c)
		if err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			s.pages.render(w, "login", layout{Title: "Sign in", Err: message(err)}, loginData{Form: s.o.Authenticate != nil})
			return
		}
		setCookie(w, r, sess)
		// The redirect drops the code from the address bar and history.
		http.Redirect(w, r, safeNext(q.Get("next")), http.StatusSeeOther)
		return
	}
	s.pages.render(w, "login", layout{Title: "Sign in", Flash: q.Get("done")},
		loginData{Form: s.o.Authenticate != nil, Next: safeNext(q.Get("next"))})
}

type loginData struct {
	Form bool
	Next string
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "the form could not be read", http.StatusBadRequest)
		return
	}
	sess, err := s.auth.signIn(r.Context(), r.PostForm.Get("token"), s.o.Authenticate)
	if err != nil {
		w.WriteHeader(http.StatusUnauthorized)
		s.pages.render(w, "login", layout{Title: "Sign in", Err: message(err)},
			loginData{Form: s.o.Authenticate != nil, Next: safeNext(r.PostForm.Get("next"))})
		return
	}
	setCookie(w, r, sess)
	http.Redirect(w, r, safeNext(r.PostForm.Get("next")), http.StatusSeeOther)
}

func atoiDefault(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil && n > 0 {
		return n
	}
	return def
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
