package storetest

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func terms(q string) []string { return text.QueryTerms(q, 12, nil) }

func texts(cs []memory.Match) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}

// search asks one layer for a query's terms at a place.
func (e *env) search(acct memory.AccountID, layer memory.Layer, q string, p memory.Place, r memory.Rung) []memory.Match {
	e.t.Helper()
	return must(e.Store.SearchLayer(e.ctx, acct, layer, memory.SearchQuery{Terms: terms(q), Place: p, Rung: r, Limit: 20}))(e.t)
}

func sessionsOf(cs []memory.Match) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.SessionRef)
	}
	slices.Sort(out)
	return out
}

func testSearch(t *testing.T, open Open) {
	t.Run("places", func(t *testing.T) {
		e := newEnv(t, open)
		for _, s := range []struct {
			ext string
			p   memory.Place
		}{{"A", wtA}, {"B", wtB}, {"C", wtC}, {"D", wtD}} {
			e.save(memory.LocalAccount, session(s.ext, s.p, day0, "deploy notes for "+s.ext+" go here"))
		}
		cases := []struct {
			at   memory.Place
			rung memory.Rung
			want []string
		}{
			{wtA, memory.RungWorktree, []string{"A"}},
			{wtB, memory.RungWorktree, []string{"B"}},
			{wtA, memory.RungProject, []string{"A", "B"}},
			{wtA, memory.RungRepo, []string{"A", "B", "C"}},
			{wtD, memory.RungRepo, []string{"D"}},
			{wtA, memory.RungEverywhere, []string{"A", "B", "C", "D"}},
			{memory.Place{Worktree: "/nowhere", Project: "/nowhere/.git"}, memory.RungProject, nil},
		}
		for _, c := range cases {
			got := sessionsOf(e.search(memory.LocalAccount, memory.L0, "deploy notes", c.at, c.rung))
			if !slices.Equal(got, c.want) {
				t.Errorf("at %s up to %s: %v, want %v", c.at.Worktree, c.rung, got, c.want)
			}
		}
	})

	t.Run("tokens", func(t *testing.T) {
		e := newEnv(t, open)
		e.save(memory.LocalAccount, session("s", wtA, day0,
			"We moved production to Render, Oregon region.",
			"我们决定统一用 pnpm，不要用 npm。",
			"fix the flaky TestParseURL in internal/net/url_test.go",
			"the getUserName helper returns v2.3.1 of the API",
			"quote \" and 'apostrophes' and a NUL \x00 byte are only text",
		))
		cases := []struct{ q, want string }{
			{"where does production deploy render", "Render"},
			{"用什么包管理器 pnpm", "pnpm"},
			{"统一", "pnpm"},
			{"url_test.go flaky", "TestParseURL"},
			{"TestParseURL", "TestParseURL"},
			{"parse url", "TestParseURL"},
			{"user name helper", "getUserName"},
			{"v2.3.1", "v2.3.1"},
			{`"`, ""},
			{`apostrophes " OR x`, "apostrophes"},
		}
		for _, c := range cases {
			hits := e.search(memory.LocalAccount, memory.L0, c.q, wtA, memory.RungWorktree)
			if c.want == "" {
				if len(hits) != 0 {
					t.Errorf("%q: %v", c.q, texts(hits))
				}
				continue
			}
			if len(hits) == 0 || !contains(hits[0].Text, c.want) {
				t.Errorf("%q: best hit %v, want one with %q", c.q, texts(hits), c.want)
				continue
			}
			h := hits[0]
			if h.BM25 <= 0 || h.SessionRef != "s" || h.TurnSeq == 0 || h.TurnKey == "" || h.Layer != memory.L0 || h.Time.IsZero() || h.Worktree != wtA.Worktree {
				t.Errorf("%q: hit lacks its score or source: %+v", c.q, h)
			}
		}
		if hits := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, memory.SearchQuery{Place: wtA}))(t); len(hits) != 0 {
			t.Fatalf("no terms, no hits: %v", texts(hits))
		}
	})

	t.Run("context, session and time filters", func(t *testing.T) {
		e := newEnv(t, open)
		s1, _ := e.save(memory.LocalAccount, session("one", wtA, day0, "which database do we use", "PostgreSQL with pgx",
			"filler one", "filler two", "filler three"))
		e.save(memory.LocalAccount, session("two", wtA, day0.AddDate(0, 0, 3), "the database migration ran"))
		// A part is found by the words of its neighbours up to two away
		// (its context), below the parts holding the words themselves.
		hits := e.search(memory.LocalAccount, memory.L0, "database", wtA, memory.RungWorktree)
		got := texts(hits)
		if len(got) != 4 || slices.Contains(got, "filler two") || slices.Contains(got, "filler three") {
			t.Fatalf("database: %v", got)
		}
		top := slices.Clone(got[:2])
		slices.Sort(top)
		if !slices.Equal(top, []string{"the database migration ran", "which database do we use"}) {
			t.Fatalf("matches in the body rank above matches in the context: %v", got)
		}
		var reply *memory.Match
		for i := range hits {
			if hits[i].Text == "PostgreSQL with pgx" {
				reply = &hits[i]
			}
		}
		if reply == nil || !contains(reply.Context, "which database") || contains(reply.Context, "PostgreSQL") {
			t.Fatalf("the reply carries its neighbours as context: %+v", hits)
		}
		// Skipped, the contexts are read apart, for any of the rows, alike.
		q := memory.SearchQuery{Terms: terms("database"), Place: wtA, Limit: 10, SkipContext: true}
		bare := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, q))(t)
		if !slices.Equal(texts(bare), got) {
			t.Fatalf("skipping the context changed the hits: %v, want %v", texts(bare), got)
		}
		slices.Reverse(bare)
		read := must(e.Store.PartContexts(e.ctx, memory.LocalAccount, bare))(t)
		for i, h := range bare {
			want := hits[len(hits)-1-i].Context
			if h.Context != "" || read[i] != want {
				t.Fatalf("part %q: skipped context %q, read %q, want %q", h.Text, h.Context, read[i], want)
			}
		}
		q = memory.SearchQuery{Terms: terms("database"), Place: wtA, ExcludeSession: s1, Limit: 10}
		if got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, q))(t)); !slices.Equal(got, []string{"the database migration ran"}) {
			t.Fatalf("excluding session one: %v", got)
		}
		q = memory.SearchQuery{Terms: terms("database"), Place: wtA, Since: day0.AddDate(0, 0, 1), Limit: 10}
		if got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, q))(t)); !slices.Equal(got, []string{"the database migration ran"}) {
			t.Fatalf("since day 1: %v", got)
		}
		q = memory.SearchQuery{Terms: terms("database"), Place: wtA, Until: day0.AddDate(0, 0, 1), Limit: 10}
		if got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, q))(t)); len(got) != 3 || slices.Contains(got, "the database migration ran") {
			t.Fatalf("until day 1: %v", got)
		}
		q = memory.SearchQuery{Terms: terms("database"), Place: wtA, Limit: 1}
		if got := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, q))(t); len(got) != 1 {
			t.Fatalf("limit 1: %v", texts(got))
		}
		// MatchAll: the newest rows holding every Match term, unranked, then
		// all but the last term, until enough are found.
		q = memory.SearchQuery{Terms: terms("database migration"), Match: terms("database migration"), MatchAll: true, Place: wtA, Limit: 10}
		all := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, q))(t)
		if got := texts(all); !slices.Equal(got, []string{"the database migration ran", "filler one", "PostgreSQL with pgx", "which database do we use"}) {
			t.Fatalf("match all, newest first: %v", got)
		}
		for _, h := range all {
			if h.BM25 != 0 {
				t.Fatalf("match all is unranked: %+v", h)
			}
		}
		q.Limit = 1
		if got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, q))(t)); !slices.Equal(got, []string{"the database migration ran"}) {
			t.Fatalf("match all, limit 1: %v", got)
		}
		// Match narrows what the index is asked for; Terms alone do not.
		q = memory.SearchQuery{Terms: terms("database pgx"), Match: []string{"pgx"}, Place: wtA, Limit: 10}
		if got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L0, q))(t)); len(got) != 4 {
			t.Fatalf("match pgx (the reply and its neighbours up to two away): %v", got)
		}
	})

	t.Run("statements", func(t *testing.T) {
		e := newEnv(t, open)
		mk := func(obj string, tier memory.Tier, sc memory.Scope) memory.Statement {
			return memory.Statement{Kind: memory.KindNote, Object: obj, Class: memory.ClassPreference, Category: "style", Cardinality: memory.Many,
				Tier: tier, Writer: memory.WriterUser, Scope: sc, Confidence: 0.9, ValidAt: day0}
		}
		rows := e.apply(memory.LocalAccount,
			mk("always run the linter before a commit", memory.TierAsserted, memory.Scope{}),
			mk("the linter config lives in the shop repo", memory.TierObserved, memory.Scope{Rung: memory.RungRepo, Key: wtA.Repo}),
			mk("the blog linter is markdownlint", memory.TierInferred, memory.Scope{Rung: memory.RungProject, Key: wtD.Project}),
			mk("untiered linter remark", "", memory.Scope{}),
		)
		q := memory.SearchQuery{Terms: terms("linter"), Place: wtA, Limit: 10}
		got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, q))(t))
		slices.Sort(got)
		if !slices.Equal(got, []string{"always run the linter before a commit", "the linter config lives in the shop repo"}) {
			t.Fatalf("in sight and tiered: %v", got)
		}
		q.Untiered = true
		if got := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, q))(t); len(got) != 3 {
			t.Fatalf("untiered too: %v", texts(got))
		}
		q = memory.SearchQuery{Terms: terms("linter"), Place: wtA, Rung: memory.RungRepo, Strict: true, Limit: 10}
		if got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, q))(t)); len(got) != 2 {
			t.Fatalf("strict repo reads the repo's rows and unplaced ones: %v", got)
		}
		q = memory.SearchQuery{Terms: terms("linter commit"), Match: terms("linter commit"), MatchAll: true, Place: wtA, Limit: 10}
		if got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, q))(t)); !slices.Equal(got, []string{"always run the linter before a commit"}) {
			t.Fatalf("derived layers require every Match term with MatchAll: %v", got)
		}
		q.MatchAll = false
		if got := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, q))(t); len(got) != 2 {
			t.Fatalf("derived layers are asked for the Match terms: %v", texts(got))
		}
		// A rare term of the raw layer that the rule lacks does not hide the
		// rule holding every Together term.
		q = memory.SearchQuery{Terms: terms("shop run before"), Match: terms("shop"), Together: terms("run before"), Place: wtA, Limit: 10}
		got = texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, q))(t))
		slices.Sort(got)
		if !slices.Equal(got, []string{"always run the linter before a commit", "the linter config lives in the shop repo"}) {
			t.Fatalf("derived layers read the Match terms and the rows holding every Together term: %v", got)
		}
		q.Together = terms("run blog")
		if got := texts(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, q))(t)); !slices.Equal(got, []string{"the linter config lives in the shop repo"}) {
			t.Fatalf("every Together term is required: %v", got)
		}
		hits := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, memory.SearchQuery{Terms: terms("linter commit"), Place: wtA, Limit: 10}))(t)
		if len(hits) == 0 || hits[0].Statement == nil || hits[0].Statement.ID != rows[0].ID || hits[0].Layer != memory.L1 || hits[0].BM25 <= 0 || hits[0].Confidence != 0.9 {
			t.Fatalf("statement hit: %+v", hits)
		}
		// Withdrawn rows are not found.
		must(e.Store.WithdrawStatement(e.ctx, memory.LocalAccount, rows[0].ID, memory.ReasonForgotten))(t)
		for _, h := range must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, memory.SearchQuery{Terms: terms("linter commit"), Place: wtA, Limit: 10}))(t) {
			if h.ID == rows[0].ID {
				t.Fatalf("forgotten row found")
			}
		}
		// valid_at filters.
		q = memory.SearchQuery{Terms: terms("linter"), Place: wtA, Since: day0.Add(time.Hour), Limit: 10}
		if got := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L1, q))(t); len(got) != 0 {
			t.Fatalf("since after every valid_at: %v", texts(got))
		}
	})

	t.Run("episodes and profile", func(t *testing.T) {
		e := newEnv(t, open)
		sa, ta := e.save(memory.LocalAccount, session("ea", wtA, day0, "fix the checkout flow"))
		sb, tb := e.save(memory.LocalAccount, session("eb", wtB, day0, "checkout tests again"))
		sd, td := e.save(memory.LocalAccount, session("ed", wtD, day0, "checkout of the blog"))
		ep := func(sid, tid int64, p memory.Place, sum string) memory.Episode {
			return memory.Episode{SessionID: sid, TurnID: tid, Place: p, Request: "req", Outcome: "done", Summary: sum,
				Files: []string{"cart/checkout.go"}, Tools: []string{"Edit"}, Status: memory.TurnCompleted, FirstPart: 1, LastPart: 1, At: day0}
		}
		must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, ep(sa, ta["0"], wtA, "fixed the checkout flow in the cart")))(t)
		must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, ep(sb, tb["0"], wtB, "checkout tests pass in the worktree")))(t)
		must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, ep(sd, td["0"], wtD, "blog checkout is unrelated")))(t)
		q := memory.SearchQuery{Terms: terms("checkout"), Place: wtA, Limit: 10}
		got := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L2, q))(t)
		if s := sessionsOf(got); !slices.Equal(s, []string{"ea", "eb"}) {
			t.Fatalf("episodes of the project, never narrower: %v", s)
		}
		for _, h := range got {
			if h.Layer != memory.L2 || h.TurnID == 0 || h.TurnKey != "0" || h.BM25 <= 0 || !contains(h.Context, "cart/checkout.go") {
				t.Fatalf("episode hit: %+v", h)
			}
		}
		q.ExcludeSession = sa
		if s := sessionsOf(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L2, q))(t)); !slices.Equal(s, []string{"eb"}) {
			t.Fatalf("excluding ea: %v", s)
		}
		q = memory.SearchQuery{Terms: terms("worktree flow cart"), Match: terms("worktree"), Together: terms("flow cart"), Place: wtA, Limit: 10}
		if s := sessionsOf(must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L2, q))(t)); !slices.Equal(s, []string{"ea", "eb"}) && !slices.Equal(s, []string{"eb", "ea"}) {
			t.Fatalf("episodes holding the Match term or every Together term: %v", s)
		}
		q = memory.SearchQuery{Terms: terms("checkout.go"), Place: wtA, Rung: memory.RungEverywhere, Limit: 10}
		if got := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L2, q))(t); len(got) != 3 {
			t.Fatalf("files are searchable, everywhere: %v", texts(got))
		}
		ok(t, e.Store.SaveProfile(e.ctx, memory.LocalAccount, "prefers Go and terse answers", []int64{3, 1}))
		ok(t, e.Store.SaveProfile(e.ctx, memory.LocalAccount, "prefers Rust and terse answers", []int64{4}))
		if got := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L3, memory.SearchQuery{Terms: terms("go")}))(t); len(got) != 0 {
			t.Fatalf("the replaced profile is found: %v", texts(got))
		}
		got = must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L3, memory.SearchQuery{Terms: terms("rust answers")}))(t)
		if len(got) != 1 || got[0].Text != "prefers Rust and terse answers" || got[0].Layer != memory.L3 {
			t.Fatalf("profile: %+v", got)
		}
	})

	t.Run("term stats", func(t *testing.T) {
		e := newEnv(t, open)
		st := must(e.Store.TermStats(e.ctx, memory.LocalAccount, memory.L0, []string{"render"}))(t)
		if st.Docs != 0 || st.DF["render"] != 0 {
			t.Fatalf("empty store: %+v", st)
		}
		e.save(memory.LocalAccount, session("s", wtA, day0, "render the page", "render again", "something else", "and more"))
		st = must(e.Store.TermStats(e.ctx, memory.LocalAccount, memory.L0, []string{"render", "page", "absent"}))(t)
		// A term counts in its own parts and, through context, in their
		// neighbours up to two away.
		if st.Docs != 4 || st.DF["page"] != 3 || st.DF["render"] != 4 || st.DF["absent"] != 0 {
			t.Fatalf("stats: %+v", st)
		}
		if st := must(e.Store.TermStats(e.ctx, memory.LocalAccount, memory.L1, []string{"render"}))(t); st.Docs != 0 {
			t.Fatalf("only L0 keeps statistics: %+v", st)
		}
	})

	t.Run("golden hit sets", func(t *testing.T) { testSearchGolden(t, open) })
}

func contains(s, sub string) bool { return len(sub) == 0 || indexOf(s, sub) >= 0 }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
