package app

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
	"github.com/cairn-memory/cairn/internal/webui"
)

// uiPlace is where the seeded session ran: a worktree inside a project,
// so a fact can move up a rung.
var uiPlace = memory.Place{Worktree: "/work/shop/main", Project: "/work/shop"}

// uiSeed is what seedUI stored for one account.
type uiSeed struct {
	session  memory.SessionSummary
	note     int64 // a current note, unpinned
	fact     int64 // ci provider, at the worktree
	otherFct int64 // database engine, at the worktree
}

// seedUI stores a session at uiPlace through the API, a note and two
// facts through the engine; text marks every row as the account's own.
func seedUI(t *testing.T, e *uiEnv, a uiAccount, text string) uiSeed {
	t.Helper()
	ctx := context.Background()
	e.turn(a, gateway.TurnBody{Provider: memory.ProviderCodex, Session: a.name + "-rollout", Place: &uiPlace,
		Request: "look at the " + text + " build", Answer: "Looked at the " + text + " build."})
	eng := e.engine(a)
	ss, err := eng.Sessions(ctx, 10)
	if err != nil || len(ss) != 1 || ss[0].Place != uiPlace {
		t.Fatalf("seeded sessions %+v, %v", ss, err)
	}
	n, err := eng.RememberAt(ctx, text+" rule: run the linter before pushing", "lint", memory.ClassConvention, false, memory.Place{})
	if err != nil {
		t.Fatal(err)
	}
	fact := func(subject, predicate, object string) int64 {
		w, err := eng.Write(ctx, engine.Write{Draft: memory.Draft{Kind: memory.KindFact, Subject: subject, Predicate: predicate,
			Object: object, Rung: memory.RungWorktree}, Writer: memory.WriterCLI, Place: &uiPlace})
		if err != nil {
			t.Fatal(err)
		}
		return w.Statement.ID
	}
	return uiSeed{session: ss[0], note: n.Statement.ID,
		fact: fact("ci", "provider", text+" Buildkite"), otherFct: fact("database", "engine", text+" Postgres")}
}

func statement(t *testing.T, eng *engine.Engine, id int64) memory.Statement {
	t.Helper()
	s, err := eng.Statement(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func currentNote(t *testing.T, eng *engine.Engine, id int64) bool {
	t.Helper()
	v, err := eng.Notes(context.Background(), false, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range v.Notes {
		if n.ID == id {
			return true
		}
	}
	return false
}

func idPath(format string, id int64) string {
	return strings.Replace(format, "ID", strconv.FormatInt(id, 10), 1)
}

// TestUITokenRules: the pages follow the API's token rules: no session,
// no page; a bad token gets no cookie; a good one gets a cookie scripts
// cannot read or other sites send; one account never sees another's
// memory; a revoked token ends its session; a form without the session's
// CSRF token changes nothing.
func TestUITokenRules(t *testing.T) { forEachUIStore(t, uiTokenRules) }

func uiTokenRules(t *testing.T, e *uiEnv) {
	ctx := context.Background()
	alice, bob := e.account("alice"), e.account("bob")
	aSeed, bSeed := seedUI(t, e, alice, "alice-only"), seedUI(t, e, bob, "bob-only")
	aEng, bEng := e.engine(alice), e.engine(bob)

	t.Run("no cookie is sent to sign-in", func(t *testing.T) {
		b := e.browser()
		for _, path := range []string{"/ui/", "/ui/facts", "/ui/settings"} {
			resp, _ := b.do("GET", path, nil)
			if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/ui/login?next=") {
				t.Errorf("GET %s: %d to %q, want 303 to sign-in", path, resp.StatusCode, loc)
			}
		}
		before := storeRows(t, aEng)
		resp, _ := b.do("POST", idPath("/ui/notes/ID/forget", aSeed.note), url.Values{"csrf": {"x"}})
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("POST without a session: %d", resp.StatusCode)
		}
		unchanged(t, "a post without a session", aEng, before)
	})

	t.Run("the address asked for survives sign-in", func(t *testing.T) {
		b := e.browser()
		want := "/ui/facts?asof=2026-05-14&clock=world"
		resp, _ := b.do("GET", want, nil)
		login := b.page(resp.Header.Get("Location"))
		next := formValues(t, login, "/ui/login").Get("next")
		if next != want {
			t.Errorf("the sign-in form goes on to %q, want %q", next, want)
		}
		resp, _ = b.do("POST", "/ui/login", url.Values{"token": {alice.secret}, "next": {next}})
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != want {
			t.Errorf("sign-in: %d to %q, want %q", resp.StatusCode, loc, want)
		}
	})

	t.Run("a wrong token gets 401 and no cookie", func(t *testing.T) {
		for _, tok := range []string{"", "cairn_wrong", alice.secret + "x", "Bearer " + alice.secret} {
			b := e.browser()
			resp, body := b.do("POST", "/ui/login", url.Values{"token": {tok}, "next": {"/ui/"}})
			if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 || banner(body, "error") == "" {
				t.Errorf("token %q: %d, cookies %v, error %q", tok, resp.StatusCode, resp.Cookies(), banner(body, "error"))
			}
			if resp, _ := b.do("GET", "/ui/", nil); resp.StatusCode != http.StatusSeeOther {
				t.Errorf("token %q: the next page answered %d", tok, resp.StatusCode)
			}
		}
	})

	t.Run("a valid token sets a strict cookie", func(t *testing.T) {
		resp := e.browser().signIn(alice.secret)
		var got *http.Cookie
		for _, c := range resp.Cookies() {
			if c.Name == "cairn_ui" {
				got = c
			}
		}
		if got == nil || got.Value == "" || !got.HttpOnly || got.SameSite != http.SameSiteStrictMode || got.Path != "/ui/" {
			t.Fatalf("cookie %+v", got)
		}
		if got.Value == alice.secret || strings.Contains(got.Value, alice.secret) {
			t.Error("the cookie carries the API token")
		}
		if loc := resp.Header.Get("Location"); loc != "/ui/" {
			t.Errorf("sign-in goes on to %q", loc)
		}
	})

	t.Run("sign-in never leaves the pages", func(t *testing.T) {
		for _, next := range []string{"//evil.example", "https://evil.example/ui/", "/v1/notes", "/ui/../v1/notes"} {
			resp, _ := e.browser().do("POST", "/ui/login", url.Values{"token": {alice.secret}, "next": {next}})
			if loc := resp.Header.Get("Location"); loc != "/ui/" {
				t.Errorf("next %q: sent on to %q", next, loc)
			}
		}
	})

	t.Run("an account sees its own memory only", func(t *testing.T) {
		ab, bb := e.browser(), e.browser()
		ab.signIn(alice.secret)
		bb.signIn(bob.secret)
		for _, path := range []string{"/ui/", "/ui/?all=1", "/ui/?q=linter", "/ui/facts", "/ui/facts?all=1&clock=system",
			"/ui/sessions", "/ui/settings"} {
			if body := ab.page(path); strings.Contains(body, "bob-") || !strings.Contains(bb.page(path), "bob-") {
				t.Errorf("%s: alice sees bob's rows, or bob does not (control)", path)
			}
		}
		if resp, _ := ab.do("GET", "/ui/sessions/"+strconv.FormatInt(bSeed.session.ID, 10), nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("alice opening bob's session: %d", resp.StatusCode)
		}
		before := storeRows(t, bEng)
		csrf := csrfOf(t, ab.page("/ui/"))
		for _, action := range []string{"/ui/notes/ID/forget", "/ui/notes/ID/pin", "/ui/facts/ID/retract"} {
			id := bSeed.note
			if strings.HasPrefix(action, "/ui/facts") {
				id = bSeed.fact
			}
			resp, _ := ab.do("POST", idPath(action, id), url.Values{"csrf": {csrf}, "back": {"/ui/"}})
			if got := banner(ab.page(resp.Header.Get("Location")), "error"); got == "" {
				t.Errorf("alice's %s on bob's row shows no error", action)
			}
		}
		unchanged(t, "alice's actions on bob's rows", bEng, before)
	})

	t.Run("a form without the session's csrf changes nothing", func(t *testing.T) {
		ab, bb := e.browser(), e.browser()
		ab.signIn(alice.secret)
		bb.signIn(bob.secret)
		good := csrfOf(t, ab.page("/ui/"))
		before := storeRows(t, aEng)
		for name, form := range map[string]url.Values{
			"none":            {"back": {"/ui/"}},
			"empty":           {"csrf": {""}},
			"wrong":           {"csrf": {good + "x"}},
			"another session": {"csrf": {csrfOf(t, bb.page("/ui/"))}},
			"in the query":    nil,
		} {
			path := idPath("/ui/notes/ID/forget", aSeed.note)
			if form == nil {
				path += "?csrf=" + url.QueryEscape(good)
				form = url.Values{}
			}
			resp, body := ab.do("POST", path, form)
			if resp.StatusCode != http.StatusUnauthorized || banner(body, "error") == "" {
				t.Errorf("%s csrf: %d %q", name, resp.StatusCode, banner(body, "error"))
			}
		}
		unchanged(t, "forms without the csrf token", aEng, before)
		// Control: the same form with the token works.
		if resp, _ := ab.do("POST", idPath("/ui/notes/ID/forget", aSeed.note), url.Values{"csrf": {good}}); resp.StatusCode != http.StatusSeeOther || currentNote(t, aEng, aSeed.note) {
			t.Fatalf("control: forget with the token: %d", resp.StatusCode)
		}
		if _, err := aEng.Undo(ctx, engine.Ref{ID: aSeed.note}); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("signing out ends the session on the server", func(t *testing.T) {
		b := e.browser()
		resp := b.signIn(alice.secret)
		old := resp.Cookies()[0]
		resp, _ = b.do("POST", "/ui/logout", url.Values{"csrf": {csrfOf(t, b.page("/ui/"))}})
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/ui/login") {
			t.Fatalf("sign out: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		if resp, _ := b.do("GET", "/ui/", nil); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("after sign-out the page answered %d", resp.StatusCode)
		}
		// The old cookie, kept by another copy of the browser, opens nothing.
		req, err := http.NewRequest("GET", e.url+"/ui/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.AddCookie(&http.Cookie{Name: old.Name, Value: old.Value})
		resp, err = b.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Errorf("the signed-out cookie still opens the page: %d", resp.StatusCode)
		}
	})

	t.Run("a revoked token ends its session", func(t *testing.T) {
		b := e.browser()
		b.signIn(alice.secret)
		csrf := csrfOf(t, b.page("/ui/"))
		if _, err := e.accts.Revoke(ctx, alice.name, alice.tokenID); err != nil {
			t.Fatal(err)
		}
		if resp, _ := b.do("GET", "/ui/", nil); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/ui/login") {
			t.Errorf("the page after revocation: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		before := storeRows(t, aEng)
		if resp, _ := b.do("POST", idPath("/ui/notes/ID/forget", aSeed.note), url.Values{"csrf": {csrf}}); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a post after revocation: %d", resp.StatusCode)
		}
		unchanged(t, "a post after revocation", aEng, before)
		if resp, _ := e.browser().do("POST", "/ui/login", url.Values{"token": {alice.secret}}); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("signing in with the revoked token: %d", resp.StatusCode)
		}
		// bob's session is not affected.
		bb := e.browser()
		bb.signIn(bob.secret)
		bb.page("/ui/")
	})
}

// uiClock is a clock a test moves.
type uiClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *uiClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *uiClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestUIOneTimeLink: the link `cairn ui` prints signs one browser in,
// once, before it expires, and goes on only to a page.
func TestUIOneTimeLink(t *testing.T) {
	e := newUIEnv(t)
	alice := e.account("alice")
	seedUI(t, e, alice, "alice-only")
	clock := &uiClock{t: time.Now()}
	ui := webui.New(webui.Options{Authenticate: e.accts.Authenticate, Now: clock.now,
		Open: func(ctx context.Context, acct memory.AccountID) (webui.Engine, error) {
			ge, err := e.gw.Engine(ctx, acct)
			if err != nil {
				return nil, err
			}
			return ge.(webui.Engine), nil
		}})
	hs := httptest.NewServer(ui.Handler())
	t.Cleanup(hs.Close)

	link := ui.LoginLink(alice.id, "alice", time.Minute)
	b := newUIBrowser(t, hs.URL)
	resp, _ := b.do("GET", link, nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/ui/" || len(resp.Cookies()) != 1 {
		t.Fatalf("first use: %d to %q, cookies %v", resp.StatusCode, resp.Header.Get("Location"), resp.Cookies())
	}
	if !strings.Contains(b.page("/ui/"), "alice-only rule") {
		t.Error("the link's session does not show alice's notes")
	}
	again := newUIBrowser(t, hs.URL)
	resp, body := again.do("GET", link, nil)
	if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 || banner(body, "error") == "" {
		t.Errorf("second use: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	if resp, _ := again.do("GET", "/ui/", nil); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("after a spent link the page answered %d", resp.StatusCode)
	}

	clock.add(11 * time.Hour)
	b.page("/ui/") // used within the idle limit: still signed in
	clock.add(12*time.Hour + time.Minute)
	if resp, _ := b.do("GET", "/ui/", nil); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a session idle past the limit answered %d", resp.StatusCode)
	}

	late := ui.LoginLink(alice.id, "alice", time.Minute)
	clock.add(2 * time.Minute)
	if resp, _ := newUIBrowser(t, hs.URL).do("GET", late, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("an expired link: %d", resp.StatusCode)
	}
	for next, want := range map[string]string{"/ui/facts": "/ui/facts", "//evil.example": "/ui/", "/ui/../v1/notes": "/ui/"} {
		l := ui.LoginLink(alice.id, "alice", time.Minute) + "&next=" + url.QueryEscape(next)
		if resp, _ := newUIBrowser(t, hs.URL).do("GET", l, nil); resp.Header.Get("Location") != want {
			t.Errorf("link with next %q goes on to %q, want %q", next, resp.Header.Get("Location"), want)
		}
	}
	if resp, _ := newUIBrowser(t, hs.URL).do("GET", "/ui/login?code=made-up", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a made-up code: %d", resp.StatusCode)
	}
}

// TestUIScreens: every screen answers a signed-in browser with its page
// and the headers that keep it to itself.
func TestUIScreens(t *testing.T) { forEachUIStore(t, uiScreens) }

func uiScreens(t *testing.T, e *uiEnv) {
	alice := e.account("alice")
	seed := seedUI(t, e, alice, "alice-only")
	b := e.browser()
	b.signIn(alice.secret)
	for _, tc := range []struct{ path, marker string }{
		{"/ui/", `id="notes"`},
		{"/ui/?q=linter&layer=L1", `class="hit"`},
		{"/ui/facts", `id="current"`},
		{"/ui/facts?asof=2026-05-14&clock=world", `id="asof-h"`},
		{"/ui/facts?clock=system&all=1", `id="timeline"`},
		{"/ui/sessions", `class="session"`},
		{"/ui/sessions/" + strconv.FormatInt(seed.session.ID, 10), `id="turn-1"`},
		{"/ui/vault", "<h1>Vault</h1>"},
		{"/ui/settings", `id="settings"`},
		{"/ui/costs", "<h1>Costs</h1>"},
		{"/ui/login", `name="token"`},
	} {
		resp, body := b.do("GET", tc.path, nil)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", tc.path, resp.StatusCode, banner(body, "error"))
			continue
		}
		if !strings.Contains(body, tc.marker) || banner(body, "error") != "" {
			t.Errorf("%s: no %s, or an error %q", tc.path, tc.marker, banner(body, "error"))
		}
		h := resp.Header
		if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", tc.path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: headers %v", tc.path, h)
		}
		if !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			t.Errorf("%s: Content-Type %q", tc.path, h.Get("Content-Type"))
		}
	}
	tomorrow := time.Now().AddDate(0, 0, 1).Format("2006-01-02")
	asof := b.page("/ui/facts?clock=world&asof=" + tomorrow)
	if !strings.Contains(asof, `id="asof-table"`) || !strings.Contains(asof[strings.Index(asof, `id="asof-table"`):], "alice-only Buildkite") {
		t.Errorf("as of %s the facts are not listed", tomorrow)
	}
	if asof := b.page("/ui/facts?clock=world&asof=2000-01-01"); strings.Contains(asof, `id="asof-table"`) || !strings.Contains(asof, "Nothing was true then") {
		t.Error("as of 2000 the page lists facts")
	}
	for path, status := range map[string]int{
		"/ui/sessions/999999":              http.StatusNotFound,
		"/ui/facts?asof=next+tuesday":      http.StatusBadRequest,
		"/ui/no-such-screen":               http.StatusNotFound,
		"/ui/static/app.css":               http.StatusOK,
		"/ui/facts?asof=2026-13-45":        http.StatusBadRequest,
		"/ui/?layer=L9&category=x&place=y": http.StatusOK,
	} {
		resp, body := b.do("GET", path, nil)
		if resp.StatusCode != status {
			t.Errorf("%s: %d, want %d", path, resp.StatusCode, status)
		}
		if status == http.StatusBadRequest && banner(body, "error") == "" {
			t.Errorf("%s: no error banner", path)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", path, resp.Header)
		}
	}
}

// TestUIForms: every action works as a plain form post from a browser
// without JavaScript, and the store shows it; bad input shows an error
// and changes no stored row.
func TestUIForms(t *testing.T) { forEachUIStore(t, uiForms) }

func uiForms(t *testing.T, e *uiEnv) {
	ctx := context.Background()
	alice := e.account("alice")
	seed := seedUI(t, e, alice, "alice-only")
	eng := e.engine(alice)
	b := e.browser()
	b.signIn(alice.secret)
	noError := func(t *testing.T, page string) {
		t.Helper()
		if msg := banner(page, "error"); msg != "" || banner(page, "flash") == "" {
			t.Fatalf("error %q, flash %q", msg, banner(page, "flash"))
		}
	}
	badInput := func(t *testing.T, what, pagePath, action string, edit func(url.Values), want string) {
		t.Helper()
		before := storeRows(t, eng)
		page := b.submit(pagePath, action, edit)
		if msg := banner(page, "error"); msg == "" || !strings.Contains(msg, want) {
			t.Errorf("%s: error banner %q, want it to say %q", what, msg, want)
		}
		unchanged(t, what, eng, before)
	}

	t.Run("add a note", func(t *testing.T) {
		page := b.submit("/ui/", "/ui/notes", func(v url.Values) {
			v.Set("text", "deploys go through the release train")
			v.Set("category", "deploy")
			v.Set("pin", "1")
		})
		noError(t, page)
		nv, err := eng.Notes(ctx, false, false)
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, n := range nv.Notes {
			if n.Object == "deploys go through the release train" {
				found = n.Pinned && n.Category == "deploy" && n.Current()
			}
		}
		if !found || !strings.Contains(page, "deploys go through the release train") {
			t.Errorf("the new note is not stored pinned in deploy, or not shown: %+v", nv.Notes)
		}
		badInput(t, "a note without text", "/ui/", "/ui/notes", func(v url.Values) { v.Set("text", "  ") }, "empty")
	})

	t.Run("forget and undo", func(t *testing.T) {
		noError(t, b.submit("/ui/", idPath("/ui/notes/ID/forget", seed.note), nil))
		if currentNote(t, eng, seed.note) || statement(t, eng, seed.note).Reason != memory.ReasonForgotten {
			t.Fatalf("after forget: %+v", statement(t, eng, seed.note))
		}
		noError(t, b.submit("/ui/?all=1", idPath("/ui/notes/ID/undo", seed.note), nil))
		if !currentNote(t, eng, seed.note) {
			t.Fatalf("after undo: %+v", statement(t, eng, seed.note))
		}
	})

	t.Run("pin and unpin", func(t *testing.T) {
		noError(t, b.submit("/ui/", idPath("/ui/notes/ID/pin", seed.note), nil))
		if msg := banner(b.page("/ui/"), "flash"); msg != "" {
			t.Errorf("the outcome is shown again on the next page: %q", msg)
		}
		if !statement(t, eng, seed.note).Pinned {
			t.Fatal("not pinned")
		}
		page := b.submit("/ui/", idPath("/ui/notes/ID/unpin", seed.note), nil)
		noError(t, page)
		if statement(t, eng, seed.note).Pinned {
			t.Fatal("still pinned")
		}
	})

	t.Run("edit", func(t *testing.T) {
		badInput(t, "an edit to empty text", "/ui/", idPath("/ui/notes/ID/edit", seed.note), func(v url.Values) { v.Set("text", " \n ") }, "empty")
		noError(t, b.submit("/ui/", idPath("/ui/notes/ID/edit", seed.note), func(v url.Values) {
			v.Set("text", "alice-only rule: run the linter and the vet before pushing")
		}))
		old := statement(t, eng, seed.note)
		if old.Current() || old.Reason != memory.ReasonSuperseded || old.ReplacedBy == 0 {
			t.Fatalf("the old wording: %+v", old)
		}
		edited := statement(t, eng, old.ReplacedBy)
		if !edited.Current() || edited.Object != "alice-only rule: run the linter and the vet before pushing" || edited.Category != "lint" {
			t.Fatalf("the new wording: %+v", edited)
		}
		seed.note = edited.ID
		// The closed wording has no edit form; a stale page's post is refused.
		before := storeRows(t, eng)
		resp, _ := b.do("POST", idPath("/ui/notes/ID/edit", old.ID), url.Values{"csrf": {csrfOf(t, b.page("/ui/"))}, "text": {"x"}, "back": {"/ui/"}})
		if msg := banner(b.page(resp.Header.Get("Location")), "error"); !strings.Contains(msg, "not current") {
			t.Errorf("editing the closed wording: %q", msg)
		}
		unchanged(t, "an edit of a closed note", eng, before)
	})

	t.Run("move a fact up the ladder", func(t *testing.T) {
		for _, bad := range []struct{ what, place, rung, want string }{
			{"a rung the place lacks", uiPlace.Worktree, "repo", "repo"},
			{"no such rung", uiPlace.Worktree, "galaxy", "rung"},
			{"an unknown place", "/elsewhere", "project", "place"},
		} {
			badInput(t, bad.what, "/ui/facts", idPath("/ui/facts/ID/move", seed.fact), func(v url.Values) {
				v.Set("place", bad.place)
				v.Set("rung", bad.rung)
			}, bad.want)
		}
		page := b.submit("/ui/facts", idPath("/ui/facts/ID/move", seed.fact), func(v url.Values) {
			if v.Get("place") != uiPlace.Worktree {
				t.Errorf("the move form is for place %q", v.Get("place"))
			}
			v.Set("rung", "project")
		})
		noError(t, page)
		old := statement(t, eng, seed.fact)
		if old.Current() || old.Reason != memory.ReasonMoved || old.ReplacedBy == 0 {
			t.Fatalf("the moved row: %+v", old)
		}
		moved := statement(t, eng, old.ReplacedBy)
		if !moved.Current() || moved.Scope != (memory.Scope{Rung: memory.RungProject, Key: uiPlace.Project}) || moved.Object != old.Object {
			t.Fatalf("the copy: %+v", moved)
		}
		sibling := memory.Place{Worktree: "/work/shop/feature", Project: uiPlace.Project}
		fv, err := eng.Facts(ctx, engine.FactQuery{Place: &sibling})
		if err != nil {
			t.Fatal(err)
		}
		if len(fv.Current) != 1 || fv.Current[0].ID != moved.ID {
			t.Errorf("a sibling worktree reads %+v after the move", fv.Current)
		}
	})

	t.Run("retract and reopen", func(t *testing.T) {
		noError(t, b.submit("/ui/facts", idPath("/ui/facts/ID/retract", seed.otherFct), nil))
		if st := statement(t, eng, seed.otherFct); st.Current() || st.Reason != memory.ReasonRetracted {
			t.Fatalf("after retract: %+v", st)
		}
		noError(t, b.submit("/ui/facts?clock=system", idPath("/ui/facts/ID/reopen", seed.otherFct), nil))
		if st := statement(t, eng, seed.otherFct); !st.Current() {
			t.Fatalf("after reopen: %+v", st)
		}
	})

	t.Run("session preset", func(t *testing.T) {
		s := seed.session
		policy := func() recall.Preset {
			t.Helper()
			p, err := eng.SessionPolicy(ctx, s.Provider, s.ExternalID)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		sessionPage := "/ui/sessions/" + strconv.FormatInt(s.ID, 10)
		action := sessionPage + "/preset"
		noError(t, b.submit(sessionPage, action, func(v url.Values) { v.Set("preset", string(recall.PresetRecallOnly)) }))
		if got := policy(); got != recall.PresetRecallOnly {
			t.Fatalf("preset %q after the session page's form", got)
		}
		page := b.submit("/ui/settings", action, func(v url.Values) {
			if v.Get("preset") != string(recall.PresetRecallOnly) {
				t.Errorf("the settings page shows preset %q", v.Get("preset"))
			}
			v.Set("preset", string(recall.PresetLearnOnly))
		})
		noError(t, page)
		if got := policy(); got != recall.PresetLearnOnly {
			t.Fatalf("preset %q after the settings page's form", got)
		}
		badInput(t, "an unknown preset", sessionPage, action, func(v url.Values) { v.Set("preset", "loud") }, "loud")
		noError(t, b.submit(sessionPage, action, func(v url.Values) { v.Set("preset", "") }))
		if got := policy(); got != recall.PresetDefault {
			t.Fatalf("preset %q after choosing the default", got)
		}
	})

	t.Run("memory off and on", func(t *testing.T) {
		if msg := banner(b.page("/ui/"), "memory-off"); msg != "" {
			t.Fatalf("control: memory is on but the page says %q", msg)
		}
		noError(t, b.submit("/ui/settings", "/ui/settings", func(v url.Values) { v.Del("memory.enabled") }))
		sw, err := eng.Switches(ctx)
		if err != nil || sw.Enabled {
			t.Fatalf("switches %+v, %v", sw, err)
		}
		_, stored, err := eng.Effective(ctx)
		if err != nil || len(stored) != 1 || stored["memory.enabled"] != "false" {
			t.Errorf("saving one switch stored %v, %v", stored, err)
		}
		for _, path := range []string{"/ui/", "/ui/facts", "/ui/settings"} {
			if msg := banner(b.page(path), "memory-off"); !strings.Contains(msg, "Memory is off") {
				t.Errorf("%s with memory off says %q", path, msg)
			}
		}
		noError(t, b.submit("/ui/settings", "/ui/settings", func(v url.Values) { v.Set("memory.enabled", "true") }))
		if sw, err := eng.Switches(ctx); err != nil || !sw.Enabled {
			t.Fatalf("switches %+v, %v", sw, err)
		}
		if msg := banner(b.page("/ui/"), "memory-off"); msg != "" {
			t.Errorf("memory is back on but the page says %q", msg)
		}
		noError(t, b.submit("/ui/settings", "/ui/settings", func(v url.Values) { v.Del("memory.capture") }))
		if msg := banner(b.page("/ui/"), "memory-off"); !strings.Contains(msg, "Learning is off") {
			t.Errorf("with learning off the page says %q", msg)
		}
	})

	t.Run("an emptied field goes back to the file's value", func(t *testing.T) {
		def, _, err := eng.Effective(ctx)
		if err != nil {
			t.Fatal(err)
		}
		fileValue, _ := def.Get("recall.budget_tokens")
		noError(t, b.submit("/ui/settings", "/ui/settings", func(v url.Values) { v.Set("recall.budget_tokens", "911") }))
		if _, stored, err := eng.Effective(ctx); err != nil || stored["recall.budget_tokens"] != "911" {
			t.Fatalf("stored %v, %v", stored, err)
		}
		noError(t, b.submit("/ui/settings", "/ui/settings", func(v url.Values) { v.Set("recall.budget_tokens", "") }))
		cfg, stored, err := eng.Effective(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := cfg.Get("recall.budget_tokens"); got != fileValue || stored["recall.budget_tokens"] != "" {
			t.Errorf("after emptying the field: %s (file %s), stored %v", got, fileValue, stored)
		}
	})

	t.Run("a bad setting saves nothing", func(t *testing.T) {
		badInput(t, "a budget that is not a number", "/ui/settings", "/ui/settings", func(v url.Values) {
			v.Del("memory.enabled")
			v.Set("recall.budget_tokens", "lots")
		}, "recall.budget_tokens")
		badInput(t, "an unknown rung", "/ui/settings", "/ui/settings", func(v url.Values) {
			v.Set("temporal.rung_task", "galaxy")
		}, "temporal.rung_task")
	})
}

// TestUIVault: the Vault screen renders the files consolidation wrote,
// escaped, and shows a hand edit made since then as a diff.
func TestUIVault(t *testing.T) {
	ctx := context.Background()
	e := newUIEnv(t)
	alice := e.account("alice")
	seedUI(t, e, alice, "alice-only")
	eng := e.engine(alice)
	if _, err := eng.RememberAt(ctx, "never paste <script>alert(1)</script> into the wiki", "", memory.ClassConvention, false, memory.Place{}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Consolidate(ctx, true); err != nil {
		t.Fatal(err)
	}
	b := e.browser()
	b.signIn(alice.secret)
	page := b.page("/ui/vault")
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;alert(1)") {
		t.Errorf("the vault file is not shown escaped:\n%s", page)
	}
	if !strings.Contains(page, "None: the files are as consolidation left them") {
		t.Errorf("control: changes are shown right after consolidation")
	}
	vf, err := eng.Vault(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	files, err := vf.List(ctx, "")
	if err != nil || len(files) == 0 {
		t.Fatalf("vault files %v, %v", files, err)
	}
	body, err := vf.Read(ctx, files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := vf.Write(ctx, files[0], append(body, []byte("- a line written by hand\n")...)); err != nil {
		t.Fatal(err)
	}
	page = b.page("/ui/vault")
	if !strings.Contains(html.UnescapeString(page), `<div class="add">+ - a line written by hand</div>`) {
		t.Errorf("the hand edit is not in the diff:\n%s", page)
	}
	for _, path := range []string{"../../cairn.db", "/etc/passwd", "no-such-file.md"} {
		resp, body := b.do("GET", "/ui/vault?path="+url.QueryEscape(path), nil)
		if resp.StatusCode < 400 || banner(body, "error") == "" {
			t.Errorf("vault path %q: %d", path, resp.StatusCode)
		}
	}
}

// TestUISessionReceipts: a session's page shows what memory each block
// sent it: the rows, their scores and the text.
func TestUISessionReceipts(t *testing.T) {
	ctx := context.Background()
	e := newUIEnv(t)
	alice := e.account("alice")
	seed := seedUI(t, e, alice, "alice-only")
	eng := e.engine(alice)
	b := e.browser()
	b.signIn(alice.secret)
	path := "/ui/sessions/" + strconv.FormatInt(seed.session.ID, 10)
	if strings.Contains(b.page(path), "Memory used") {
		t.Fatal("control: a receipt is shown before any block was sent")
	}
	place := uiPlace
	res, err := eng.Recall(ctx, engine.RecallRequest{Query: "what does the linter rule say before pushing", Place: &place,
		Provider: seed.session.Provider, Session: seed.session.ExternalID})
	if err != nil {
		t.Fatal(err)
	}
	if res.Receipt == nil || len(res.Receipt.Items) == 0 {
		t.Fatalf("the recall recorded no receipt with rows: %+v (%s)", res.Receipt, res.ReceiptError)
	}
	page := html.UnescapeString(b.page(path))
	if !strings.Contains(page, "Memory used: ") || !strings.Contains(page, "<td>"+res.Receipt.Items[0].Ref+"</td>") {
		t.Errorf("the receipt's rows are not on the session page:\n%s", page)
	}
	if !strings.Contains(page, "alice-only rule: run the linter") {
		t.Error("the text sent is not on the session page")
	}
}

// TestUIFlashOnAsOfPage: an action taken from the facts page with an
// as-of date lands back there with its outcome shown (building the page
// once took the message before the page was drawn).
func TestUIFlashOnAsOfPage(t *testing.T) {
	e := newUIEnv(t)
	alice := e.account("alice")
	seed := seedUI(t, e, alice, "alice-only")
	b := e.browser()
	b.signIn(alice.secret)
	tomorrow := time.Now().AddDate(0, 0, 1).Format("2006-01-02")
	page := b.submit("/ui/facts?clock=world&asof="+tomorrow, "/ui/facts/"+strconv.FormatInt(seed.fact, 10)+"/retract", nil)
	if msg := banner(page, "flash"); !strings.Contains(msg, "retracted") {
		t.Fatalf("the as-of page after a retract shows no outcome: flash %q, error %q", msg, banner(page, "error"))
	}
}
