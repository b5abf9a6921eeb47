package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// A project before its remote was added: another numbered place under
// wtA's project.
var wtA0 = memory.Place{Worktree: "/src/shop", Project: "/src/shop/.git"}

// seedEpisodes writes episodes of generated text at several places and
// for two accounts, one with no words at all; it returns the second
// account and the episodes written, by id.
func seedEpisodes(t *testing.T, db *DB) (memory.AccountID, map[int64]memory.Episode) {
	t.Helper()
	ctx := context.Background()
	other, err := db.CreateAccount(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Fields("deploy target render oregon fly ledger refund retry backoff invoice webhook timeout " +
		"migration schema index cache flaky test parser rounding currency payout report")
	r := rand.New(rand.NewPCG(7, 7))
	say := func(n int) string {
		out := make([]string, n)
		for i := range out {
			out[i] = words[min(r.IntN(len(words)), r.IntN(len(words)))] // skewed: some words common
		}
		return strings.Join(out, " ")
	}
	eps := map[int64]memory.Episode{}
	places := []memory.Place{wtA, wtB, wtC, wtD, wtA0}
	for i := range 40 {
		acct, p := memory.LocalAccount, places[i%len(places)]
		if i%8 == 7 {
			acct = other.ID
		}
		at := day0.Add(time.Duration(i) * time.Hour)
		c, err := db.SaveSession(ctx, acct, session(fmt.Sprint("ep", i), p, at, "a", "b", "c"))
		if err != nil {
			t.Fatal(err)
		}
		for k, tid := range c.Changed {
			ep := memory.Episode{SessionID: c.SessionID, TurnID: tid, Place: p, Request: say(1 + r.IntN(6)), Outcome: say(r.IntN(4)),
				Summary: say(2 + r.IntN(12)), Files: []string{"internal/" + say(1) + ".go"}, Tools: []string{"Edit"},
				Status: memory.TurnCompleted, At: at.Add(time.Minute * time.Duration(len(k))), Confidence: 0.5}
			if i == 3 && k == "0" {
				ep.Request, ep.Outcome, ep.Summary, ep.Files, ep.Tools = "", "", "", nil, nil // a row of no tokens still counts
			}
			id, err := db.SaveEpisode(ctx, acct, ep)
			if err != nil {
				t.Fatal(err)
			}
			eps[id] = ep
		}
	}
	return other.ID, eps
}

type episodeHit struct {
	ID    int64
	Score float64
}

// wholeIndexEpisodes is a search of episodes as it was before the index
// carried places: every match in the whole index ranked, then filtered.
func wholeIndexEpisodes(t *testing.T, db *DB, acct memory.AccountID, q memory.SearchQuery) []episodeHit {
	t.Helper()
	var sb strings.Builder
	args := []any{int64(1)<<episodeIDBits - 1, derivedMatch(q), int64(acct)}
	sb.WriteString(`SELECT hits.id, hits.score FROM (
			SELECT rowid & ? AS id, -bm25(episodes_fts, 1.0, 0.3) AS score FROM episodes_fts WHERE episodes_fts MATCH ?) hits
		JOIN episodes e ON e.id = hits.id WHERE e.account_id = ? AND e.expired_at = 0`)
	episodeFilter(&sb, &args, q)
	sb.WriteString(` ORDER BY hits.score DESC, hits.id DESC LIMIT ?`)
	args = append(args, q.Limit)
	rows, err := db.read.QueryContext(context.Background(), sb.String(), args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []episodeHit
	for rows.Next() {
		var h episodeHit
		if err := rows.Scan(&h.ID, &h.Score); err != nil {
			t.Fatal(err)
		}
		out = append(out, h)
	}
	return out
}

// episodeQueries are searches of episodes at every rung, for both
// accounts, with one term, several, all required, and at places with
// one, two or no numbered places.
func episodeQueries(other memory.AccountID) []struct {
	acct memory.AccountID
	q    memory.SearchQuery
} {
	var out []struct {
		acct memory.AccountID
		q    memory.SearchQuery
	}
	for _, qt := range []memory.SearchQuery{
		{Terms: terms("deploy")},
		{Terms: terms("refund retry invoice")},
		{Terms: terms("payout rounding"), Match: []string{"payout", "rounding"}, MatchAll: true},
		{Terms: terms("flaky parser test currency schema")},
	} {
		for _, p := range []memory.Place{wtA, wtB, wtC, wtD, wtA0, {Worktree: "/nowhere", Project: "/nowhere/.git", Repo: "github.com/acme/nowhere"}} {
			for _, r := range []memory.Rung{memory.RungWorktree, memory.RungProject, memory.RungRepo, memory.RungEverywhere} {
				for _, acct := range []memory.AccountID{memory.LocalAccount, other} {
					q := qt
					q.Place, q.Rung, q.Limit = p, r, 8
					out = append(out, struct {
						acct memory.AccountID
						q    memory.SearchQuery
					}{acct, q})
				}
			}
		}
	}
	return out
}

func searchHits(t *testing.T, db *DB, acct memory.AccountID, q memory.SearchQuery) []episodeHit {
	t.Helper()
	got, err := db.SearchLayer(context.Background(), acct, memory.L2, q)
	if err != nil {
		t.Fatal(err)
	}
	var out []episodeHit
	for _, m := range got {
		out = append(out, episodeHit{m.ID, m.BM25})
	}
	return out
}

// Reading only the rowid ranges of a search's places finds and scores
// exactly what ranking the whole index and filtering found: bm25 still
// counts rows and terms over the whole index.
func TestEpisodeSearchReadsItsPlacesAlone(t *testing.T) {
	db := openTest(t)
	other, eps := seedEpisodes(t, db)
	found, places := 0, map[string]bool{}
	for _, c := range episodeQueries(other) {
		want := wholeIndexEpisodes(t, db, c.acct, c.q)
		got := searchHits(t, db, c.acct, c.q)
		if !slices.Equal(got, want) {
			t.Errorf("account %d, %v at %s (%s):\n got %v\nwant %v", c.acct, c.q.Terms, c.q.Place.Worktree, c.q.Rung, got, want)
		}
		found += len(got)
		for _, h := range got {
			places[eps[h.ID].Place.Project+" "+eps[h.ID].Place.Repo] = true
		}
	}
	if found < 200 || len(places) != 4 {
		t.Fatalf("the searches found too little to compare: %d hits, places %v", found, places)
	}
	// Every index row sits in its place's range.
	var misplaced int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM episodes e` + episodePlaceJoin + `
		WHERE p.id IS NULL OR NOT EXISTS (SELECT 1 FROM episodes_fts_docsize d WHERE d.id = (p.id << 40) | e.id)`).Scan(&misplaced); err != nil || misplaced != 0 {
		t.Fatalf("%d episodes without their index row in their place's range (%v)", misplaced, err)
	}
}

// A place past the ranges a search reads one by one is read from the
// whole index, with the same result.
func TestEpisodeSearchOfManyPlaces(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	var want []string
	for i := range maxEpisodeRanges + 2 {
		p := memory.Place{Worktree: fmt.Sprint("/src/shop", i), Project: fmt.Sprint("/src/shop", i, "/.git"), Repo: wtA.Repo}
		c, err := db.SaveSession(ctx, memory.LocalAccount, session(fmt.Sprint("m", i), p, day0, "a"))
		if err != nil {
			t.Fatal(err)
		}
		summary := fmt.Sprint("refund number ", i)
		if _, err := db.SaveEpisode(ctx, memory.LocalAccount, memory.Episode{SessionID: c.SessionID, TurnID: c.Changed["0"], Place: p,
			Summary: summary, At: day0, Confidence: 1}); err != nil {
			t.Fatal(err)
		}
		want = append(want, summary)
	}
	q := memory.SearchQuery{Terms: terms("refund"), Place: wtA, Rung: memory.RungRepo, Limit: 20}
	if r, err := db.episodeRanges(ctx, memory.LocalAccount, q); err != nil || r != nil {
		t.Fatalf("ranges of %d places: %v %v, want the whole index", maxEpisodeRanges+2, r, err)
	}
	got, err := db.SearchLayer(ctx, memory.LocalAccount, memory.L2, q)
	if err != nil {
		t.Fatal(err)
	}
	var sums []string
	for _, m := range got {
		sums = append(sums, m.Text)
	}
	slices.Sort(sums)
	if !slices.Equal(sums, want) {
		t.Fatalf("repo search: %q, want %q", sums, want)
	}
}

// A store written before the index carried places is migrated, and its
// episodes indexed again at open: the searches find and score what they
// did, and the index holds the same terms.
func TestEpisodeIndexMigratedToPlaces(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	other, eps := seedEpisodes(t, db)
	// The migration is applied by hand below: later migrations keep the
	// schema version past it, so a reopen would not run it again.
	var migration string
	for _, m := range migrations() {
		if m.name == "episodes_place" {
			migration = m.sql
		}
	}
	// Back to the index as the earlier schema wrote it: rowids are the
	// episodes' ids, and no place table.
	err := db.Update(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM episodes_fts; DROP TABLE episode_places`); err != nil {
			return err
		}
		for id, ep := range eps {
			if _, err := tx.ExecContext(ctx, `INSERT INTO episodes_fts (rowid, body, context) VALUES (?, ?, ?)`, id,
				text.IndexText(ep.Summary+"\n"+ep.Request+"\n"+ep.Outcome), text.IndexText(strings.Join(ep.Files, " ")+" "+strings.Join(ep.Tools, " "))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	type search struct {
		acct memory.AccountID
		q    memory.SearchQuery
		hits []episodeHit
	}
	var before []search
	for _, c := range episodeQueries(other) {
		before = append(before, search{c.acct, c.q, wholeIndexEpisodes(t, db, c.acct, c.q)})
	}
	vocab := func(db *DB) string {
		var s string
		if err := db.read.QueryRow(`SELECT group_concat(term || ':' || doc || ':' || cnt, ' ') FROM episodes_vocab`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	vocabBefore := vocab(db)
	if err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, migration)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	path := db.path
	db.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v := vocab(db); v != vocabBefore {
		t.Fatalf("the index's terms changed in the migration:\n%s\n%s", v, vocabBefore)
	}
	found := 0
	for _, s := range before {
		got := searchHits(t, db, s.acct, s.q)
		if !slices.Equal(got, s.hits) {
			t.Errorf("account %d, %v at %s (%s):\n after %v\nbefore %v", s.acct, s.q.Terms, s.q.Place.Worktree, s.q.Rung, got, s.hits)
		}
		found += len(got)
	}
	if found < 200 {
		t.Fatalf("the searches found too little to compare: %d", found)
	}
	var rows, low, backlog int
	err = db.read.QueryRow(`SELECT COUNT(*), COUNT(*) FILTER (WHERE id < 1 << 40), (SELECT COUNT(*) FROM fts_backlog) FROM episodes_fts_docsize`).Scan(&rows, &low, &backlog)
	if err != nil || rows != len(eps) || low != 0 || backlog != 0 {
		t.Fatalf("index rows %d of %d episodes, %d outside a place, backlog %d (%v)", rows, len(eps), low, backlog, err)
	}
}

// Saving a turn's episode again replaces its index row, and a purge
// removes a forgotten episode's terms from the index.
func TestEpisodeIndexRowsFollowTheirEpisodes(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	c, err := db.SaveSession(ctx, memory.LocalAccount, session("s", wtA, day0, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	save := func(turn, summary string) int64 {
		id, err := db.SaveEpisode(ctx, memory.LocalAccount, memory.Episode{SessionID: c.SessionID, TurnID: c.Changed[turn], Place: wtA,
			Summary: summary, At: day0, Confidence: 1})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	terms := func(word string) int {
		var n int
		if err := db.read.QueryRow(`SELECT COALESCE(SUM(doc), 0) FROM episodes_vocab WHERE term = ?`, word).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	save("0", "first quillowbright draft")
	save("0", "second draft")
	gone := save("1", "the zephyrcrumb episode")
	if terms("quillowbright") != 0 || terms("draft") != 1 || terms("zephyrcrumb") != 1 {
		t.Fatalf("index after a turn's episode was saved again: quillowbright %d, draft %d, zephyrcrumb %d",
			terms("quillowbright"), terms("draft"), terms("zephyrcrumb"))
	}
	if _, err := db.SetEpisodeState(ctx, memory.LocalAccount, gone, memory.ReasonForgotten); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Purge(ctx, memory.LocalAccount); err != nil {
		t.Fatal(err)
	}
	if terms("zephyrcrumb") != 0 || terms("draft") != 1 {
		t.Fatalf("after the purge: zephyrcrumb %d, draft %d", terms("zephyrcrumb"), terms("draft"))
	}
}
