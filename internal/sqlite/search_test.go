package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// session builds a session of one-part turns at a place.
func session(ext string, p memory.Place, start time.Time, texts ...string) memory.Session {
	s := memory.Session{Provider: "test", ExternalID: ext, Place: p, StartedAt: start}
	for i, t := range texts {
		at := start.Add(time.Duration(i) * time.Minute)
		s.Turns = append(s.Turns, memory.Turn{
			Key: fmt.Sprint(i), Seq: i + 1, Request: t, Status: memory.TurnCompleted, StartedAt: at, Digest: fmt.Sprint(ext, i, t),
			Parts: []memory.Part{{Seq: i + 1, Role: memory.RoleUser, Kind: memory.KindText, Text: t, Time: at}},
		})
	}
	return s
}

func terms(q string) []string { return text.QueryTerms(q, 12, nil) }

func texts(cs []memory.Match) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}

var (
	wtA  = memory.Place{Worktree: "/src/shop", Project: "/src/shop/.git", Repo: "github.com/acme/shop"}
	wtB  = memory.Place{Worktree: "/src/shop-wt", Project: "/src/shop/.git", Repo: "github.com/acme/shop"}
	wtC  = memory.Place{Worktree: "/other/shop", Project: "/other/shop/.git", Repo: "github.com/acme/shop"}
	wtD  = memory.Place{Worktree: "/src/blog", Project: "/src/blog/.git", Repo: "github.com/acme/blog"}
	day0 = time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
)

func seedPlaces(t *testing.T, db *DB) map[string]int64 {
	t.Helper()
	ids := map[string]int64{}
	for name, s := range map[string]memory.Session{
		"A": session("A", wtA, day0, "the deploy target is Render in Oregon"),
		"B": session("B", wtB, day0.AddDate(0, 0, 1), "deploy target moved to Fly.io"),
		"C": session("C", wtC, day0.AddDate(0, 0, 2), "deploy notes from the second clone"),
		"D": session("D", wtD, day0.AddDate(0, 0, 3), "deploy the blog with hugo"),
	} {
		c, err := db.SaveSession(context.Background(), memory.LocalAccount, s)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = c.SessionID
	}
	return ids
}

func TestSearchPlaceLadder(t *testing.T) {
	db := openTest(t)
	seedPlaces(t, db)
	cases := []struct {
		rung memory.Rung
		want int
	}{
		{memory.RungWorktree, 1},   // only this checkout
		{memory.RungProject, 2},    // + the linked worktree of the same clone
		{memory.RungRepo, 3},       // + another clone of the same repo
		{memory.RungEverywhere, 4}, // + another repo
	}
	for _, c := range cases {
		got, err := db.SearchLayer(context.Background(), memory.LocalAccount, memory.L0, memory.SearchQuery{Terms: terms("deploy"), Place: wtA, Rung: c.rung})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.want {
			t.Errorf("rung %s: %d hits %v, want %d", c.rung, len(got), texts(got), c.want)
		}
	}
}

func TestSearchFilters(t *testing.T) {
	db := openTest(t)
	ids := seedPlaces(t, db)
	q := memory.SearchQuery{Terms: terms("deploy"), Place: wtA, Rung: memory.RungEverywhere}
	q.ExcludeSession = ids["A"]
	got, _ := db.SearchLayer(context.Background(), memory.LocalAccount, memory.L0, q)
	for _, c := range got {
		if c.SessionID == ids["A"] {
			t.Fatal("the excluded session was returned")
		}
	}
	q.ExcludeSession = 0
	q.Since, q.Until = day0.AddDate(0, 0, 1), day0.AddDate(0, 0, 3)
	got, _ = db.SearchLayer(context.Background(), memory.LocalAccount, memory.L0, q)
	if len(got) != 2 {
		t.Fatalf("time range: %v", texts(got))
	}
	other, _ := db.SearchLayer(context.Background(), memory.AccountID(2), memory.L0, memory.SearchQuery{Terms: terms("deploy"), Place: wtA, Rung: memory.RungEverywhere})
	if len(other) != 0 {
		t.Fatal("another account sees this account's parts")
	}
}

func TestSearchFindsCJKAndCode(t *testing.T) {
	db := openTest(t)
	s := session("cjk", wtA, day0,
		"我们决定统一用 pnpm，不要用 npm。",
		"デプロイ先をRenderに変更しました",
		"fix the flaky TestParseURL in internal/net/url_test.go for PAY-1432",
		"we talked about lunch",
	)
	if _, err := db.SaveSession(context.Background(), memory.LocalAccount, s); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ q, want string }{
		{"统一用什么包管理器", "pnpm"},
		{"デプロイ先はどこ", "Render"},
		{"what broke in url_test.go", "TestParseURL"},
		{"PAY-1432", "TestParseURL"},
		{"parse url test flaky", "TestParseURL"},
		{"pnpm", "pnpm"},
	}
	for _, c := range cases {
		got, err := db.SearchLayer(context.Background(), memory.LocalAccount, memory.L0, memory.SearchQuery{Terms: terms(c.q), Place: wtA})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || !strings.Contains(got[0].Text, c.want) {
			t.Errorf("%q: best hit %v, want one containing %q", c.q, texts(got), c.want)
		}
	}
}

func TestContextColumnFindsTheAnswerByItsQuestion(t *testing.T) {
	db := openTest(t)
	s := session("ctx", wtA, day0,
		"Which database engine do we run in production?",
		"PostgreSQL 16, on the managed tier.",
		"unrelated chatter about the weather",
		"more unrelated chatter",
		"and even more",
	)
	if _, err := db.SaveSession(context.Background(), memory.LocalAccount, s); err != nil {
		t.Fatal(err)
	}
	got, err := db.SearchLayer(context.Background(), memory.LocalAccount, memory.L0, memory.SearchQuery{Terms: terms("production database engine"), Place: wtA})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range got {
		if strings.HasPrefix(c.Text, "PostgreSQL") {
			found = true
			if !strings.Contains(c.Context, "database engine") {
				t.Errorf("context of the answer: %q", c.Context)
			}
		}
		if strings.HasPrefix(c.Text, "and even more") {
			t.Error("a part three away from every match was found through context")
		}
	}
	if !found {
		t.Fatalf("the answer was not found through its question: %v", texts(got))
	}
}

func TestGrowingSessionReindexesItsNeighbour(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	first := session("grow", wtA, day0, "what is the on-call rotation?")
	if _, err := db.SaveSession(ctx, memory.LocalAccount, first); err != nil {
		t.Fatal(err)
	}
	grown := session("grow", wtA, day0, "what is the on-call rotation?", "Selin this week, then Baran.")
	if _, err := db.SaveSession(ctx, memory.LocalAccount, grown); err != nil {
		t.Fatal(err)
	}
	got, _ := db.SearchLayer(ctx, memory.LocalAccount, memory.L0, memory.SearchQuery{Terms: terms("Baran"), Place: wtA})
	if len(got) != 2 {
		t.Fatalf("the question did not gain its new answer as context: %v", texts(got))
	}
	var docs int
	if err := db.read.QueryRow(`SELECT docs FROM fts_docs WHERE layer = 'L0'`).Scan(&docs); err != nil || docs != 2 {
		t.Fatalf("document count %d (%v), want 2", docs, err)
	}
}

func TestTermStats(t *testing.T) {
	db := openTest(t)
	seedPlaces(t, db)
	st, err := db.TermStats(context.Background(), memory.LocalAccount, memory.L0, []string{"deploy", "hugo", "absent"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Docs != 4 || st.DF["deploy"] != 4 || st.DF["hugo"] != 1 || st.DF["absent"] != 0 {
		t.Fatalf("%+v", st)
	}
}

func FuzzMatchExpr(f *testing.F) {
	db, err := Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SaveSession(context.Background(), memory.LocalAccount, session("f", wtA, day0, "some text")); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`"`, `a" OR "b`, `NEAR(a b)`, `*`, `col:term`, `^x`, `a AND`, `(`, `'`, "\x00", `"""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Raw strings as terms, not only tokenizer output: quoting alone
		// must make any of them safe.
		for _, ts := range [][]string{{s}, terms(s), {s, "text"}} {
			if _, err := db.SearchLayer(context.Background(), memory.LocalAccount, memory.L0, memory.SearchQuery{Terms: ts, Place: wtA}); err != nil {
				t.Fatalf("terms %q: %v", ts, err)
			}
		}
	})
}

func TestPartsStoredBeforeTheIndexAreIndexedAtOpen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v2.db")
	old, err := openPools(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.migrate(ctx, 2); err != nil {
		t.Fatal(err)
	}
	// A version-2 store has no index: write its rows as that version did.
	err = old.Update(ctx, func(tx *Tx) error {
		s := session("old", wtA, day0, "the staging cluster runs on k3s", "rotate the signing key monthly")
		id, err := upsertSession(ctx, tx, memory.LocalAccount, s)
		if err != nil {
			return err
		}
		for _, tr := range s.Turns {
			res, err := tx.Exec(`INSERT INTO turns (account_id, session_id, seq, key, status, digest, created_at, updated_at) VALUES (1, ?, ?, ?, 'completed', 'd', 0, 0)`, id, tr.Seq, tr.Key)
			if err != nil {
				return err
			}
			tid, _ := res.LastInsertId()
			if _, err := tx.Exec(`INSERT INTO parts (account_id, session_id, turn_id, seq, role, kind, text) VALUES (1, ?, ?, ?, 'user', 'text', ?)`, id, tid, tr.Seq, tr.Parts[0].Text); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	old.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.SearchLayer(ctx, memory.LocalAccount, memory.L0, memory.SearchQuery{Terms: terms("k3s staging"), Place: wtA})
	if err != nil || len(got) == 0 || !strings.Contains(got[0].Text, "k3s") {
		t.Fatalf("old parts not searchable after upgrade: %v %v", texts(got), err)
	}
	var left int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM fts_backlog`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("backlog left: %d %v", left, err)
	}
}

// Counts are kept between searches until a twentieth of the sampled
// documents is new; then they are taken again.
func TestTermStatsKeptUntilTheIndexMoves(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	add := func(ext string, n int) {
		t.Helper()
		var lines []string
		for i := range n {
			lines = append(lines, fmt.Sprintf("deploy number %d", i))
		}
		if _, err := db.SaveSession(ctx, memory.LocalAccount, session(ext, wtA, day0, lines...)); err != nil {
			t.Fatal(err)
		}
	}
	count := func() int {
		t.Helper()
		st, err := db.TermStats(ctx, memory.LocalAccount, memory.L0, []string{"deploy"})
		if err != nil {
			t.Fatal(err)
		}
		return st.DF["deploy"]
	}
	add("a", 40)
	if n := count(); n != 40 {
		t.Fatalf("first count %d, want 40", n)
	}
	add("b", 1)
	if n := count(); n != 40 {
		t.Fatalf("one new part of 41 recounted: %d, want the kept 40", n)
	}
	add("c", 1)
	if n := count(); n != 42 {
		t.Fatalf("after two new parts of 42: %d, want a fresh 42", n)
	}
}

// TestRareTermsHeldElsewhere: a search that ranks on its rare terms alone
// and finds none of them at its place reads the newest rows holding its
// other terms there, as a search of common terms does; one that finds
// them reads only them.
func TestRareTermsHeldElsewhere(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	for _, s := range []memory.Session{
		session("A", wtA, day0, "the deploy target is Render", "deploy notes for the shop"),
		session("D", wtD, day0.AddDate(0, 0, 1), "PAY-1432 deploy of the blog"),
	} {
		if _, err := db.SaveSession(ctx, memory.LocalAccount, s); err != nil {
			t.Fatal(err)
		}
	}
	q := memory.SearchQuery{Terms: []string{"pay-1432", "deploy"}, Match: []string{"pay-1432"}, Place: wtA}
	got, err := db.SearchLayer(ctx, memory.LocalAccount, memory.L0, q)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"deploy notes for the shop", "the deploy target is Render"}; strings.Join(texts(got), "|") != strings.Join(want, "|") {
		t.Errorf("rare term elsewhere: %q, want the newest deploy rows here %q", texts(got), want)
	}
	for _, c := range got {
		if c.BM25 != 0 {
			t.Errorf("%q: unranked rows score 0, got %v", c.Text, c.BM25)
		}
	}
	q.Place = wtD
	got, _ = db.SearchLayer(ctx, memory.LocalAccount, memory.L0, q)
	if len(got) != 1 || got[0].Text != "PAY-1432 deploy of the blog" || got[0].BM25 <= 0 {
		t.Errorf("rare term here: %q, want its row alone, ranked", texts(got))
	}
}
