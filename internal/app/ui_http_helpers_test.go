package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// uiEnv is `cairn serve`'s handler (the gateway with the memory screen
// beside it) on loopback over a real SQLite store.
type uiEnv struct {
	t     *testing.T
	url   string
	st    teamStore
	gw    *gateway.Server
	accts gateway.Accounts
}

func newUIEnv(t *testing.T) *uiEnv {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return newUIEnvOn(t, db)
}

// newUIEnvOn serves the pages over st, as `cairn serve --db` would.
func newUIEnvOn(t *testing.T, st teamStore) *uiEnv {
	t.Helper()
	gw := newGateway(st, config.Default(), t.TempDir(), gateway.Options{Rate: -1})
	accts := gateway.Accounts{Store: st}
	hs := httptest.NewServer(withUI(gw, accts, "test", nil))
	t.Cleanup(func() { hs.Close(); gw.Close() })
	return &uiEnv{t: t, url: hs.URL, st: st, gw: gw, accts: accts}
}

// forEachUIStore runs a test of the pages over every store the gateway
// serves from: SQLite always, PostgreSQL when CAIRN_TEST_POSTGRES is set.
func forEachUIStore(t *testing.T, test func(*testing.T, *uiEnv)) {
	for _, gs := range gatewayStores() {
		t.Run(gs.name, func(t *testing.T) { test(t, newUIEnvOn(t, gs.open(t))) })
	}
}

// uiAccount is an account with one operator token.
type uiAccount struct {
	name    string
	id      memory.AccountID
	secret  string
	tokenID int64
}

func (e *uiEnv) account(name string) uiAccount {
	e.t.Helper()
	ctx := context.Background()
	a, err := e.accts.Create(ctx, name)
	if err != nil {
		e.t.Fatal(err)
	}
	secret, tok, err := e.accts.Issue(ctx, name, "ui test", true)
	if err != nil {
		e.t.Fatal(err)
	}
	return uiAccount{name: name, id: a.ID, secret: secret, tokenID: tok.ID}
}

// engine is the account's engine, the one the gateway and the pages use.
func (e *uiEnv) engine(a uiAccount) *engine.Engine {
	e.t.Helper()
	ge, err := e.gw.Engine(context.Background(), a.id)
	if err != nil {
		e.t.Fatal(err)
	}
	eng, ok := ge.(*engine.Engine)
	if !ok {
		e.t.Fatalf("the gateway's engine is a %T", ge)
	}
	return eng
}

// turn sends one turn through the API, as a client's hook does; it makes
// the session (and its place) the pages list.
func (e *uiEnv) turn(a uiAccount, tb gateway.TurnBody) {
	e.t.Helper()
	b, err := json.Marshal(tb)
	if err != nil {
		e.t.Fatal(err)
	}
	req, err := http.NewRequest("POST", e.url+"/v1/turns", bytes.NewReader(b))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+a.secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	if body, _ := io.ReadAll(resp.Body); resp.StatusCode != 200 {
		e.t.Fatalf("POST /v1/turns: %d %s", resp.StatusCode, body)
	}
}

// uiBrowser is a browser without JavaScript: a cookie jar, plain form
// posts, and redirects looked at before they are followed.
type uiBrowser struct {
	t    *testing.T
	base string
	c    *http.Client
}

func (e *uiEnv) browser() *uiBrowser { return newUIBrowser(e.t, e.url) }

func newUIBrowser(t *testing.T, base string) *uiBrowser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &uiBrowser{t: t, base: base, c: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends one request; form, when not nil, is posted as a browser posts
// a form.
func (b *uiBrowser) do(method, path string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return resp, string(out)
}

// page loads a screen that must answer 200.
func (b *uiBrowser) page(path string) string {
	b.t.Helper()
	resp, body := b.do("GET", path, nil)
	if resp.StatusCode != 200 {
		b.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, banner(body, "error"))
	}
	return body
}

// signIn posts the sign-in form with an API token.
func (b *uiBrowser) signIn(secret string) *http.Response {
	b.t.Helper()
	resp, body := b.do("POST", "/ui/login", url.Values{"token": {secret}, "next": {"/ui/"}})
	if resp.StatusCode != http.StatusSeeOther {
		b.t.Fatalf("sign in: %d %s", resp.StatusCode, banner(body, "error"))
	}
	return resp
}

// submit loads pagePath, finds the form posting to action, lets edit
// change what a person would type or tick, posts it, and follows the
// redirect back: it returns the page shown after the action.
func (b *uiBrowser) submit(pagePath, action string, edit func(url.Values)) string {
	b.t.Helper()
	vals := formValues(b.t, b.page(pagePath), action)
	if edit != nil {
		edit(vals)
	}
	resp, body := b.do("POST", action, vals)
	if resp.StatusCode != http.StatusSeeOther {
		b.t.Fatalf("POST %s: %d %s", action, resp.StatusCode, banner(body, "error"))
	}
	return b.page(resp.Header.Get("Location"))
}

var (
	formRe     = regexp.MustCompile(`(?s)<form\b([^>]*)>(.*?)</form>`)
	inputRe    = regexp.MustCompile(`<input\b[^>]*>`)
	selectRe   = regexp.MustCompile(`(?s)<select\b([^>]*)>(.*?)</select>`)
	optionRe   = regexp.MustCompile(`(?s)<option\b([^>]*)>([^<]*)`)
	textareaRe = regexp.MustCompile(`(?s)<textarea\b([^>]*)>(.*?)</textarea>`)
	attrRe     = regexp.MustCompile(`([a-z-]+)(?:="([^"]*)")?`)
)

func attrs(tag string) map[string]string {
	m := map[string]string{}
	for _, a := range attrRe.FindAllStringSubmatch(tag, -1) {
		if _, seen := m[a[1]]; !seen {
			m[a[1]] = html.UnescapeString(a[2])
		}
	}
	return m
}

// formValues reads what a browser sends for the first form that posts to
// action: hidden and text fields, ticked boxes, chosen options and text
// areas. The form must be on the page.
func formValues(t *testing.T, page, action string) url.Values {
	t.Helper()
	for _, f := range formRe.FindAllStringSubmatch(page, -1) {
		if attrs(f[1])["action"] != action {
			continue
		}
		v := url.Values{}
		for _, in := range inputRe.FindAllString(f[2], -1) {
			a := attrs(strings.TrimPrefix(in, "<input"))
			if a["name"] == "" {
				continue
			}
			if _, on := a["checked"]; (a["type"] == "checkbox" || a["type"] == "radio") && !on {
				continue
			}
			v.Add(a["name"], a["value"])
		}
		for _, s := range selectRe.FindAllStringSubmatch(f[2], -1) {
			name := attrs(s[1])["name"]
			chosen, first := "", true
			for _, o := range optionRe.FindAllStringSubmatch(s[2], -1) {
				oa := attrs(o[1])
				val, ok := oa["value"]
				if !ok {
					val = html.UnescapeString(strings.TrimSpace(o[2]))
				}
				if _, sel := oa["selected"]; first || sel {
					chosen, first = val, false
				}
			}
			v.Set(name, chosen)
		}
		for _, ta := range textareaRe.FindAllStringSubmatch(f[2], -1) {
			v.Set(attrs(ta[1])["name"], html.UnescapeString(ta[2]))
		}
		return v
	}
	t.Fatalf("no form posts to %s on the page", action)
	return nil
}

// banner is the text of the page's element with this id (flash, error,
// memory-off), or "" when the page has none.
func banner(page, id string) string {
	m := regexp.MustCompile(`(?s)<p[^>]*id="` + regexp.QuoteMeta(id) + `"[^>]*>(.*?)</p>`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// csrfOf is the page's CSRF token, as its forms carry it.
func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page carries no csrf field")
	}
	return m[1]
}

// storeRows is everything an account's store holds that the pages can
// change, one line a row: statements of every kind on the system clock
// (closed ones too), the stored settings and the presets of its sessions.
func storeRows(t *testing.T, eng *engine.Engine) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	rows, err := eng.Timeline(ctx, engine.FactQuery{Everywhere: true}, temporal.System, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rows {
		out = append(out, fmt.Sprintf("%s %d %q current=%v reason=%s by=%d pinned=%v at=%s/%s",
			s.Kind, s.ID, s.Object, s.Current(), s.Reason, s.ReplacedBy, s.Pinned, s.Scope.Rung, s.Scope.Key))
	}
	_, stored, err := eng.Effective(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range stored {
		out = append(out, "setting "+k+"="+v)
	}
	ss, err := eng.Sessions(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		p, err := eng.SessionPolicy(ctx, s.Provider, s.ExternalID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("session %d preset=%q", s.ID, p))
	}
	slices.Sort(out)
	return out
}

// unchanged fails when the store differs from before.
func unchanged(t *testing.T, what string, eng *engine.Engine, before []string) {
	t.Helper()
	if after := storeRows(t, eng); !slices.Equal(before, after) {
		t.Errorf("%s changed the store:\nbefore %q\nafter  %q", what, before, after)
	}
}
