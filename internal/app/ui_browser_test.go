package app

import (
	"context"
	"flag"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
	"github.com/cairn-memory/cairn/internal/sqlite"
	"github.com/cairn-memory/cairn/internal/webui"
)

var screenshot = flag.Bool("screenshot", false, "write the Memory screen's screenshot to docs/img/memory-screen.png")

// chromium finds Debian's browser. CI installs it and sets
// CAIRN_TEST_BROWSER=1, which turns its absence into a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CAIRN_TEST_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CAIRN_TEST_BROWSER") == "1" {
		t.Fatal("CAIRN_TEST_BROWSER=1 but no chromium was found: install Debian's chromium (.ci/run does)")
	}
	t.Skip("SKIPPED: the browser tests need Debian's chromium (apt-get install chromium); set CAIRN_TEST_BROWSER=1 to make its absence fail")
	return ""
}

// uiRig is the memory screen over a real store, as `cairn ui` serves it.
type uiRig struct {
	eng   *engine.Engine
	url   string
	place memory.Place
	sess  memory.Session
}

func newUIRig(t *testing.T) *uiRig {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := config.Default()
	cfg.Recall.TimeZone = "UTC"
	eng := engine.New(db, engine.Options{Config: cfg, Vaults: vaultOpener(dir)})
	rig := &uiRig{eng: eng, place: memory.Place{Worktree: "/src/shop", Project: "/src/shop"}}
	at := time.Date(2026, 5, 11, 9, 30, 0, 0, time.UTC)
	rig.sess = memory.Session{Provider: memory.ProviderClaudeCode, ExternalID: "browser-session-1", Cwd: "/src/shop", Place: rig.place,
		Title: "checkout retries", StartedAt: at, EndedAt: at.Add(time.Hour),
		Turns: []memory.Turn{{Key: "t1", Seq: 1, Status: memory.TurnCompleted, StartedAt: at, EndedAt: at.Add(time.Minute),
			Request: "make the checkout retry failed payments", Outcome: "added a retry with backoff to the payment client",
			Parts: []memory.Part{
				{Seq: 1, Role: memory.RoleUser, Kind: memory.KindText, Text: "make the checkout retry failed payments", Time: at},
				{Seq: 2, Role: memory.RoleAssistant, Kind: memory.KindText, Text: "added a retry with backoff to the payment client", Time: at.Add(time.Minute)},
			}}}}
	if _, err := eng.Ingest(ctx, []memory.Session{rig.sess}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []struct {
		text, cat string
		class     memory.Class
		pin       bool
	}{
		{"commit subjects start with the ticket key, e.g. PAY-1432", "git", memory.ClassConvention, true},
		{"run the integration tests with make itest before pushing", "testing", memory.ClassConvention, false},
		{"prefers short answers with the command first", "", memory.ClassPreference, false},
	} {
		if _, err := eng.RememberAt(ctx, n.text, n.cat, n.class, n.pin, rig.place); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := eng.Write(ctx, engine.Write{Draft: memory.Draft{Kind: memory.KindFact, Subject: "production", Predicate: "deploy_target",
		Object: "Hetzner, Falkenstein", ValidAt: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Rung: memory.RungWorktree},
		Writer: memory.WriterCLI, Place: &rig.place}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Write(ctx, engine.Write{Draft: memory.Draft{Kind: memory.KindFact, Subject: "production", Predicate: "deploy_target",
		Object: "Render, Oregon", ValidAt: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Rung: memory.RungWorktree},
		Writer: memory.WriterCLI, Place: &rig.place}); err != nil {
		t.Fatal(err)
	}
	// A recall leaves the receipt the Sessions screen shows.
	if _, err := eng.Recall(ctx, engine.RecallRequest{Query: "how do commits start? ticket key", Place: &rig.place,
		Provider: memory.ProviderClaudeCode, Session: rig.sess.ExternalID}); err != nil {
		t.Fatal(err)
	}
	ui := webui.New(webui.Options{Open: func(context.Context, memory.AccountID) (webui.Engine, error) { return eng, nil }})
	ts := httptest.NewServer(ui.Handler())
	t.Cleanup(ts.Close)
	rig.url = ts.URL + ui.LoginLink(memory.LocalAccount, "this machine", time.Minute)
	return rig
}

// browser starts headless chromium; a failing test leaves a screenshot of
// the page it was on.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Logf("no failure screenshot: %v", err)
			return
		}
		dir := os.Getenv("CAIRN_TEST_ARTIFACTS")
		if dir == "" {
			dir = os.TempDir()
		}
		p := filepath.Join(dir, "cairn-ui-"+strings.ReplaceAll(t.Name(), "/", "_")+".png")
		if err := os.WriteFile(p, png, 0o644); err == nil {
			t.Logf("failure screenshot: %s", p)
		}
	})
	return ctx
}

func drive(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// pageText reads an element's visible text.
func pageText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return v
}

// pageCount counts the elements a selector matches, without waiting.
func pageCount(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
	if err != nil {
		t.Fatalf("count %s: %v", sel, err)
	}
	return n
}

// flash waits for an action's outcome and fails on an error banner.
func flash(t *testing.T, ctx context.Context, what string) string {
	t.Helper()
	drive(t, ctx, what, chromedp.WaitVisible(chromedp.CSS(`#flash, #error`)))
	if pageCount(t, ctx, "#error") > 0 {
		t.Fatalf("%s: the page says %q", what, pageText(t, ctx, "#error"))
	}
	return pageText(t, ctx, "#flash")
}

func (r *uiRig) note(t *testing.T, text string) memory.Statement {
	t.Helper()
	nv, err := r.eng.Notes(context.Background(), true, false)
	if err != nil {
		t.Fatal(err)
	}
	var found memory.Statement
	for _, n := range nv.Notes {
		if n.Object == text && (found.ID == 0 || n.ID > found.ID) {
			found = n
		}
	}
	if found.ID == 0 {
		t.Fatalf("no note %q in the store", text)
	}
	return found
}

func TestUIBrowser(t *testing.T) {
	rig := newUIRig(t)
	ctx := browser(t)
	bg := context.Background()
	base := rig.url[:strings.Index(rig.url, "/ui/")]
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }

	// The one-time link signs in and lands on the Memory screen.
	drive(t, ctx, "sign in", chromedp.Navigate(rig.url), chromedp.WaitVisible(css(`tr.note`)))
	if h1 := pageText(t, ctx, "h1"); h1 != "Memory" {
		t.Fatalf("landed on %q", h1)
	}
	if *screenshot {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "img", "memory-screen.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sid := strconv.FormatInt(rig.sessionID(t), 10)

	t.Run("every screen loads", func(t *testing.T) {
		for _, s := range []struct{ path, h1 string }{
			{"/ui/", "Memory"}, {"/ui/facts", "Facts"}, {"/ui/facts?asof=2026-05-14&clock=world", "Facts"},
			{"/ui/sessions", "Sessions"}, {"/ui/sessions/" + sid, "checkout retries"},
			{"/ui/vault", "Vault"}, {"/ui/settings", "Settings"}, {"/ui/costs", "Costs"},
		} {
			drive(t, ctx, s.path, chromedp.Navigate(base+s.path), chromedp.WaitVisible(css(`h1`)))
			if got, errs := pageText(t, ctx, "h1"), pageCount(t, ctx, "#error"); got != s.h1 || errs != 0 {
				t.Errorf("%s: h1 %q (want %q), %d error banners", s.path, got, s.h1, errs)
			}
		}
		// As of mid-May the deploy target was the first value.
		drive(t, ctx, "as of", chromedp.Navigate(base+"/ui/facts?asof=2026-05-14&clock=world"))
		if asof := pageText(t, ctx, "#asof-table"); !strings.Contains(asof, "Hetzner") || strings.Contains(asof, "Render") {
			t.Errorf("as of 2026-05-14: %q", asof)
		}
		// The session shows what memory its turn was given.
		drive(t, ctx, "receipt", chromedp.Navigate(base+"/ui/sessions/"+sid))
		if receipt := pageText(t, ctx, "details.receipt summary"); !strings.Contains(receipt, "Memory used") || !strings.Contains(receipt, "tokens") {
			t.Errorf("receipt summary %q", receipt)
		}
	})

	t.Run("forget and undo a note", func(t *testing.T) {
		n := rig.note(t, "run the integration tests with make itest before pushing")
		row := `#note-` + strconv.FormatInt(n.ID, 10)
		drive(t, ctx, "forget", chromedp.Navigate(base+"/ui/"), chromedp.Click(css(row+` button[value=forget]`)))
		flash(t, ctx, "forget")
		if got := rig.note(t, n.Object); got.Current() || got.Reason != memory.ReasonForgotten {
			t.Fatalf("after Forget the note is %+v", got)
		}
		drive(t, ctx, "undo", chromedp.Navigate(base+"/ui/?all=1"), chromedp.Click(css(row+` button[value=undo]`)))
		flash(t, ctx, "undo")
		if got := rig.note(t, n.Object); !got.Current() {
			t.Fatalf("after Undo the note is %+v", got)
		}
	})

	t.Run("pin a note", func(t *testing.T) {
		n := rig.note(t, "prefers short answers with the command first")
		if n.Pinned {
			t.Fatal("control: the note starts pinned")
		}
		drive(t, ctx, "pin", chromedp.Navigate(base+"/ui/"), chromedp.Click(css(`#note-`+strconv.FormatInt(n.ID, 10)+` button[value=pin]`)))
		flash(t, ctx, "pin")
		if !rig.note(t, n.Object).Pinned {
			t.Fatal("the note is not pinned in the store")
		}
	})

	t.Run("edit a note", func(t *testing.T) {
		n := rig.note(t, "commit subjects start with the ticket key, e.g. PAY-1432")
		row := `#note-` + strconv.FormatInt(n.ID, 10)
		edited := "commit subjects start with the Jira ticket key, e.g. PAY-1432"
		drive(t, ctx, "edit", chromedp.Navigate(base+"/ui/"),
			chromedp.Click(css(row+` details summary`)),
			chromedp.SetValue(css(row+` textarea`), edited),
			chromedp.Click(css(row+` button[value=save]`)))
		flash(t, ctx, "edit")
		if old := rig.note(t, n.Object); old.Current() || old.Reason != memory.ReasonSuperseded {
			t.Fatalf("old wording %+v", old)
		}
		if got := rig.note(t, edited); !got.Current() || !got.Pinned {
			t.Fatalf("new wording %+v", got)
		}
	})

	t.Run("search from the keyboard", func(t *testing.T) {
		drive(t, ctx, "search", chromedp.Navigate(base+"/ui/"), chromedp.WaitVisible(css(`#q`)),
			chromedp.KeyEvent("/"), chromedp.KeyEvent("backoff retry"+kb.Enter),
			chromedp.WaitVisible(css(`tr.hit`)))
		if hits := pageText(t, ctx, "#main"); !strings.Contains(hits, "Search results for “backoff retry”") || !strings.Contains(hits, "retry with backoff") {
			t.Fatalf("search page: %.400q", hits)
		}
	})

	t.Run("change a session preset", func(t *testing.T) {
		drive(t, ctx, "preset", chromedp.Navigate(base+"/ui/sessions/"+sid),
			chromedp.SetValue(css(`#preset`), string(recall.PresetPrivate)),
			chromedp.Click(css(`form[action$="/preset"] button`)))
		flash(t, ctx, "preset")
		p, err := rig.eng.SessionPolicy(bg, rig.sess.Provider, rig.sess.ExternalID)
		if err != nil || p != recall.PresetPrivate {
			t.Fatalf("preset in the store: %q %v", p, err)
		}
	})

	t.Run("move a fact to the project", func(t *testing.T) {
		v, err := rig.eng.Facts(bg, engine.FactQuery{Place: &rig.place})
		if err != nil || len(v.Current) != 1 {
			t.Fatalf("control: current facts %+v %v", v.Current, err)
		}
		row := `#fact-` + strconv.FormatInt(v.Current[0].ID, 10)
		drive(t, ctx, "move", chromedp.Navigate(base+"/ui/facts"),
			chromedp.SetValue(css(row+` select[name=rung]`), "project"),
			chromedp.Click(css(row+` form[action$="/move"] button`)))
		flash(t, ctx, "move")
		v, err = rig.eng.Facts(bg, engine.FactQuery{Place: &rig.place})
		if err != nil || len(v.Current) != 1 || v.Current[0].Scope.Rung != memory.RungProject {
			t.Fatalf("after the move: %+v %v", v.Current, err)
		}
	})

	t.Run("memory off is said plainly", func(t *testing.T) {
		drive(t, ctx, "settings", chromedp.Navigate(base+"/ui/settings"),
			chromedp.Click(css(`#s-memory\.enabled`)),
			chromedp.Click(css(`#settings button[type=submit]`)))
		flash(t, ctx, "save settings")
		sw, err := rig.eng.Switches(bg)
		if err != nil || sw.Enabled {
			t.Fatalf("switches after unticking Memory: %+v %v", sw, err)
		}
		drive(t, ctx, "banner", chromedp.Navigate(base+"/ui/"), chromedp.WaitVisible(css(`h1`)))
		if banner := pageText(t, ctx, "#memory-off"); !strings.Contains(banner, "Memory is off") {
			t.Fatalf("banner %q", banner)
		}
		drive(t, ctx, "turn on", chromedp.Navigate(base+"/ui/settings"),
			chromedp.Click(css(`#s-memory\.enabled`)),
			chromedp.Click(css(`#settings button[type=submit]`)))
		flash(t, ctx, "save settings")
		drive(t, ctx, "memory page", chromedp.Navigate(base+"/ui/"), chromedp.WaitVisible(css(`h1`)))
		if pageCount(t, ctx, "#memory-off") != 0 {
			t.Fatal("the banner stayed after Memory was turned back on")
		}
	})
}

func (r *uiRig) sessionID(t *testing.T) int64 {
	t.Helper()
	ss, err := r.eng.Sessions(context.Background(), 10)
	if err != nil || len(ss) == 0 {
		t.Fatalf("sessions %v %v", ss, err)
	}
	return ss[0].ID
}
