package webui

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Options configures the pages; zero fields take defaults.
type Options struct {
	// Open returns the engine of an account; the pages never close it.
	Open func(ctx context.Context, acct memory.AccountID) (Engine, error)
	// Authenticate checks an API token for the sign-in form, with the
	// gateway's rules; nil leaves only one-time links (`cairn ui`).
	Authenticate func(ctx context.Context, secret string) (memory.Token, error)
	Logger       *slog.Logger
	Version      string
	// Idle ends a browser session unused this long (default 12 hours).
	Idle time.Duration
	Now  func() time.Time
}

// Prefix is where the pages live.
const Prefix = "/ui/"

// Server serves the pages.
type Server struct {
	o     Options
	log   *slog.Logger
	auth  *sessions
	mux   *http.ServeMux
	pages *pages
}

// New builds the pages' server.
func New(o Options) *Server {
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Idle == 0 {
		o.Idle = 12 * time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{o: o, log: o.Logger, auth: newSessions(o.Now, o.Idle), pages: newPages()}
	s.routes()
	return s
}

// Handler serves everything under Prefix.
func (s *Server) Handler() http.Handler { return secureHeaders(s.mux) }

// LoginLink mints a one-time link path (with its code) that opens a
// browser session on acct as its operator; it works once, within ttl.
func (s *Server) LoginLink(acct memory.AccountID, name string, ttl time.Duration) string {
	return Prefix + "login?code=" + s.auth.mintCode(memory.Token{Account: acct, Name: name, Operator: true}, ttl)
}

// page is a handler that has a signed-in visitor and their engine.
type page func(w http.ResponseWriter, r *http.Request, v *visit) error

// visit is one request's visitor.
type visit struct {
	sess *session
	eng  Engine
}

func (s *Server) handle(pattern string, h page) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		sess, err := s.auth.check(r, s.o.Authenticate)
		if err != nil {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, Prefix+"login?next="+safeNext(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			s.fail(w, r, nil, memory.Errorf(memory.CodeUnauthorized, "your browser session has ended: sign in again"))
			return
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
			if err := r.ParseForm(); err != nil {
				s.fail(w, r, nil, memory.Errorf(memory.CodeInvalid, "the form could not be read: %v", err))
				return
			}
			if !sess.validCSRF(r.PostForm.Get("csrf")) {
				s.fail(w, r, nil, memory.Errorf(memory.CodeUnauthorized, "the form is stale or came from another site: reload the page and try again"))
				return
			}
		}
		ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
		defer cancel()
		r = r.WithContext(ctx)
		eng, err := s.o.Open(ctx, sess.token.Account)
		if err != nil {
			s.fail(w, r, nil, err)
			return
		}
		v := &visit{sess: sess, eng: eng}
		if err := h(w, r, v); err != nil {
			s.fail(w, r, v, err)
		}
	})
}

// fail renders an error page with the status its code maps to.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, v *visit, err error) {
	status := statusOf(err)
	if status >= 500 {
		s.log.Error("ui", "path", r.URL.Path, "err", err)
	}
	w.WriteHeader(status)
	s.pages.render(w, "error", layout{Title: "Something went wrong", Err: message(err), Signed: v != nil, CSRF: csrfOf(v)}, nil)
}

func statusOf(err error) int {
	switch memory.ErrorCode(err) {
	case memory.CodeInvalid:
		return http.StatusBadRequest
	case memory.CodeNotFound:
		return http.StatusNotFound
	case memory.CodeConflict:
		return http.StatusConflict
	case memory.CodeUnauthorized:
		return http.StatusUnauthorized
	case memory.CodeUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// message is what a page shows of an error: its own words, or a pointer
// to the log for a bug.
func message(err error) string {
	if m := memory.ErrorMessage(err); m != "" {
		return m
	}
	return "cairn hit an internal error; the server's log has the details"
}

func csrfOf(v *visit) string {
	if v == nil {
		return ""
	}
	return v.sess.csrf
}

// secureHeaders keeps the pages to themselves: no framing, no scripts or
// styles from elsewhere, and no referrer that could carry a login code.
func secureHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}
