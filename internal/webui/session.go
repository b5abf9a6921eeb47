package webui

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// cookieName holds a browser session's id; the session itself stays on
// the server.
const cookieName = "cairn_ui"

// session is one signed-in browser.
type session struct {
	id    string
	token memory.Token
	// secret is the API token the visitor signed in with, checked again on
	// every request so a revoked token ends the session at once; empty for
	// a session opened by a one-time link.
	secret string
	csrf   string
	last   time.Time
	// flash is the outcome of the last action, shown once.
	flash, flashErr string
}

func (s *session) setFlash(msg, errMsg string) {
	flashMu.Lock()
	s.flash, s.flashErr = msg, errMsg
	flashMu.Unlock()
}

func (s *session) takeFlash() (msg, errMsg string) {
	flashMu.Lock()
	msg, errMsg = s.flash, s.flashErr
	s.flash, s.flashErr = "", ""
	flashMu.Unlock()
	return msg, errMsg
}

// flashMu guards every session's flash: actions are rare, one lock is
// plenty.
var flashMu sync.Mutex

func (s *session) validCSRF(v string) bool {
	return v != "" && subtle.ConstantTimeCompare([]byte(v), []byte(s.csrf)) == 1
}

// code is an unused one-time link.
type code struct {
	token   memory.Token
	expires time.Time
}

// sessions keeps browser sessions and one-time codes in memory: a
// restart signs everyone out, which is what a local tool should do.
type sessions struct {
	now   func() time.Time
	idle  time.Duration
	mu    sync.Mutex
	byID  map[string]*session
	codes map[string]code
}

func newSessions(now func() time.Time, idle time.Duration) *sessions {
	return &sessions{now: now, idle: idle, byID: map[string]*session{}, codes: map[string]code{}}
}

func randomID() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported systems
	return base64.RawURLEncoding.EncodeToString(b)
}

func (ss *sessions) mintCode(t memory.Token, ttl time.Duration) string {
	c := randomID()
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.codes[c] = code{token: t, expires: ss.now().Add(ttl)}
	return c
}

// redeem spends a one-time code.
func (ss *sessions) redeem(c string) (*session, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	cd, ok := ss.codes[c]
	delete(ss.codes, c)
	if !ok || ss.now().After(cd.expires) {
		return nil, memory.Errorf(memory.CodeUnauthorized, "this sign-in link was used already or has expired: run `cairn ui` again for a new one")
	}
	return ss.open(cd.token, ""), nil
}

// open starts a session; the caller holds mu.
func (ss *sessions) open(t memory.Token, secret string) *session {
	s := &session{id: randomID(), token: t, secret: secret, csrf: randomID(), last: ss.now()}
	ss.byID[s.id] = s
	for id, o := range ss.byID {
		if ss.now().Sub(o.last) > ss.idle {
			delete(ss.byID, id)
		}
	}
	return s
}

// signIn checks an API token and opens a session for it.
func (ss *sessions) signIn(ctx context.Context, secret string, auth func(context.Context, string) (memory.Token, error)) (*session, error) {
	if auth == nil {
		return nil, memory.Errorf(memory.CodeUnauthorized, "this server signs in with one-time links only: run `cairn ui`")
	}
	secret = strings.TrimSpace(secret)
	t, err := auth(ctx, secret)
	if err != nil {
		return nil, memory.Errorf(memory.CodeUnauthorized, "that token was not accepted: it is mistyped, revoked or for another server")
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.open(t, secret), nil
}

// check finds the request's session and applies the token rules again.
func (ss *sessions) check(r *http.Request, auth func(context.Context, string) (memory.Token, error)) (*session, error) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return nil, memory.Errorf(memory.CodeUnauthorized, "not signed in")
	}
	ss.mu.Lock()
	s, ok := ss.byID[c.Value]
	if ok && ss.now().Sub(s.last) > ss.idle {
		delete(ss.byID, c.Value)
		ok = false
	}
	if ok {
		s.last = ss.now()
	}
	ss.mu.Unlock()
	if !ok {
		return nil, memory.Errorf(memory.CodeUnauthorized, "not signed in")
	}
	if s.secret != "" {
		if auth == nil {
			return nil, memory.Errorf(memory.CodeUnauthorized, "token sign-in is off")
		}
		t, err := auth(r.Context(), s.secret)
		if err != nil || t.Account != s.token.Account {
			ss.end(s.id)
			return nil, memory.Errorf(memory.CodeUnauthorized, "the token of this session was revoked")
		}
	}
	return s, nil
}

func (ss *sessions) end(id string) {
	ss.mu.Lock()
	delete(ss.byID, id)
	ss.mu.Unlock()
}

func setCookie(w http.ResponseWriter, r *http.Request, s *session) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: s.id, Path: Prefix, HttpOnly: true,
		Secure: overTLS(r), SameSite: http.SameSiteStrictMode})
}

// overTLS reports whether the browser reached us over HTTPS, directly or
// through a proxy that terminated TLS and says so. A forged header only
// makes the cookie stricter.
func overTLS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

func clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: Prefix, MaxAge: -1, HttpOnly: true,
		Secure: overTLS(r), SameSite: http.SameSiteStrictMode})
}

// safeNext keeps a post-sign-in redirect inside the pages. The path is
// checked as a browser resolves it: "/ui/../v1" (or "/ui/%2e%2e/v1")
// would leave them.
func safeNext(next string) string {
	if !strings.HasPrefix(next, Prefix) || strings.HasPrefix(next, "//") || strings.Contains(next, "\\") {
		return Prefix
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(path.Clean(u.Path)+"/", Prefix) {
		return Prefix
	}
	return next
}
