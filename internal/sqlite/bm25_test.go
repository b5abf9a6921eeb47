package sqlite

import (
	"database/sql"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"modernc.org/libc"
)

// openRankDB is a bare SQLite file with an FTS5 table of two columns, on
// a connection that defines cairn_bm25.
func openRankDB(t *testing.T) *sql.DB {
	t.Helper()
	if err := registerRank(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "rank.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE VIRTUAL TABLE docs USING fts5(body, context)`); err != nil {
		t.Fatal(err)
	}
	return db
}

var rankWords = strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon")

func addDocs(t *testing.T, db *sql.DB, r *rand.Rand, n int) {
	t.Helper()
	doc := func() string {
		words := make([]string, 1+r.IntN(30))
		for i := range words {
			// A skewed vocabulary: a few words are common, most rare.
			words[i] = rankWords[min(r.IntN(len(rankWords)), r.IntN(len(rankWords)))]
		}
		return strings.Join(words, " ")
	}
	for range n {
		if _, err := db.Exec(`INSERT INTO docs(body, context) VALUES (?, ?)`, doc(), doc()); err != nil {
			t.Fatal(err)
		}
	}
}

// compareRanks runs q through bm25 and cairn_bm25 and wants the same
// score, to the last bit, for every row. A column filter is part of the
// scope: a phrase's count depends on it.
func compareRanks(t *testing.T, db *sql.DB, q string) int {
	t.Helper()
	scope := "docs"
	if strings.HasPrefix(q, "{body}") {
		scope = "docs{body}"
	}
	rows, err := db.Query(`SELECT rowid, bm25(docs, 1.0, 0.5), cairn_bm25(docs, ?, 1.0, 0.5) FROM docs WHERE docs MATCH ?`, scope, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int64
		var want, got float64
		if err := rows.Scan(&id, &want, &got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%s, row %d: cairn_bm25 %v, bm25 %v", q, id, got, want)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRankIsBM25(t *testing.T) {
	db := openRankDB(t)
	r := rand.New(rand.NewPCG(7, 11))
	addDocs(t, db, r, 400)
	query := func() string {
		w := func() string { return `"` + rankWords[r.IntN(len(rankWords))] + `"` }
		switch r.IntN(4) {
		case 0:
			return w()
		case 1:
			return w() + " OR " + w() + " OR " + w()
		case 2:
			return "(" + w() + " OR " + w() + ") OR (" + w() + " AND " + w() + ")"
		}
		return "{body} : (" + w() + " OR " + w() + ")"
	}
	matched := 0
	for round := range 4 {
		qs := make([]string, 40)
		for i := range qs {
			qs[i] = query()
		}
		// Each query twice: counted, then from the kept counts.
		for _, q := range qs {
			matched += compareRanks(t, db, q)
			matched += compareRanks(t, db, q)
		}
		// The index changes: rows added, then some deleted. Every count
		// kept is now of another index and must not be used.
		addDocs(t, db, r, 30)
		if round%2 == 1 {
			if _, err := db.Exec(`DELETE FROM docs WHERE rowid % 7 = ?`, round); err != nil {
				t.Fatal(err)
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d rows matched: the comparison proves little", matched)
	}
}

func TestRankNeedsItsScope(t *testing.T) {
	db := openRankDB(t)
	addDocs(t, db, rand.New(rand.NewPCG(1, 2)), 10)
	err := db.QueryRow(`SELECT cairn_bm25(docs) FROM docs WHERE docs MATCH 'alpha' LIMIT 1`).Scan(new(float64))
	if err == nil || !strings.Contains(err.Error(), "scope") {
		t.Fatalf("no scope: %v", err)
	}
}

func TestPhraseCountFresh(t *testing.T) {
	for _, tc := range []struct {
		c            phraseCount
		rows, tokens int64
		want         bool
	}{
		{phraseCount{rows: 100, tokens: 900}, 100, 900, true},
		{phraseCount{rows: 100, tokens: 900}, 101, 910, false},
		{phraseCount{rows: 100, tokens: 900}, 100, 901, false},
		// A large index reuses a count within a fiftieth of its rows.
		{phraseCount{rows: 100_000, tokens: 9e6}, 101_000, 9.1e6, true},
		{phraseCount{rows: 100_000, tokens: 9e6}, 99_000, 8.9e6, true},
		{phraseCount{rows: 100_000, tokens: 9e6}, 103_000, 9.3e6, false},
		{phraseCount{rows: 19_990, tokens: 9e6}, 19_999, 9.1e6, false},
	} {
		if got := tc.c.fresh(tc.rows, tc.tokens); got != tc.want {
			t.Errorf("%+v at %d rows, %d tokens: fresh %v, want %v", tc.c, tc.rows, tc.tokens, got, tc.want)
		}
	}
}

// TestRankKeepsCounts: a second query of the same phrases does not count
// them again, and another scope or file does not share the counts.
func TestRankKeepsCounts(t *testing.T) {
	db := openRankDB(t)
	addDocs(t, db, rand.New(rand.NewPCG(3, 4)), 50)
	var file string
	if err := db.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		t.Fatal(err)
	}
	kept := func(scope, phrase string) (phraseCount, bool) {
		phraseCounts.Lock()
		defer phraseCounts.Unlock()
		c, ok := phraseCounts.m[phraseKey{file: file, scope: scope, phrase: phrase}]
		return c, ok
	}
	if _, ok := kept("docs", "alpha"); ok {
		t.Fatal("a count before any query")
	}
	compareRanks(t, db, `"alpha" OR "beta"`)
	c, ok := kept("docs", "alpha")
	if !ok || c.rows != 50 {
		t.Fatalf("alpha's count: %+v, %v", c, ok)
	}
	var n int64
	if err := db.QueryRow(`SELECT COUNT(*) FROM docs WHERE docs MATCH 'alpha'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if c.hits != n {
		t.Fatalf("alpha held by %d rows, counted %d", n, c.hits)
	}
	// A count planted for this index is what the next query uses.
	phraseCounts.Lock()
	phraseCounts.m[phraseKey{file: file, scope: "docs", phrase: "alpha"}] = phraseCount{rows: c.rows, tokens: c.tokens, hits: 1}
	phraseCounts.Unlock()
	var got, want float64
	q := `SELECT cairn_bm25(docs, 'docs'), bm25(docs) FROM docs WHERE docs MATCH 'alpha' ORDER BY rowid LIMIT 1`
	if err := db.QueryRow(q).Scan(&got, &want); err != nil {
		t.Fatal(err)
	}
	if got == want {
		t.Fatalf("the kept count was not used: %v", got)
	}
	if _, ok := kept("other", "alpha"); ok {
		t.Fatal("a scope shares another's counts")
	}
}

func TestPhraseIDF(t *testing.T) {
	tls := libc.NewTLS()
	defer tls.Close()
	for _, tc := range []struct {
		rows, hits int64
		want       float64
	}{
		{1000, 10, math.Log((1000 - 10 + 0.5) / (10 + 0.5))},
		{1000, 600, 1e-06}, // held by most rows: FTS5's floor
		// A count kept from an index a little larger than now: held to
		// the rows there are, never NaN.
		{50_000, 50_400, 1e-06},
	} {
		if got := phraseIDF(tls, tc.rows, tc.hits); got != tc.want || math.IsNaN(got) {
			t.Errorf("phraseIDF(%d, %d) = %v, want %v", tc.rows, tc.hits, got, tc.want)
		}
	}
}
