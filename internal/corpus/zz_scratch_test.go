package corpus

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/text"
	_ "modernc.org/sqlite"
)

func scratchExpr(terms []string) string {
	var q []string
	for _, t := range terms {
		q = append(q, `"`+strings.ReplaceAll(t, `"`, `""`)+`"`)
	}
	return strings.Join(q, " OR ")
}

func TestScratchSQL(t *testing.T) {
	dir := os.Getenv("SCRATCH_STORE")
	if dir == "" {
		t.Skip()
	}
	var st struct{ Checkouts []Checkout }
	raw, _ := os.ReadFile(filepath.Join(dir, "store.json"))
	json.Unmarshal(raw, &st)
	wt, _ := filepath.EvalSymlinks(st.Checkouts[0].Dir)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "cairn.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if p := os.Getenv("SCRATCH_PRAGMA"); p != "" {
		for _, s := range strings.Split(p, ";") {
			if _, err := db.Exec("PRAGMA " + s); err != nil {
				t.Fatal(err)
			}
		}
	}
	var docs int
	db.QueryRow(`SELECT docs FROM fts_docs WHERE layer='L0'`).Scan(&docs)
	df := func(terms []string) map[string]int {
		m := map[string]int{}
		for _, tm := range terms {
			var n int
			db.QueryRow(`SELECT doc FROM parts_vocab WHERE term = ?`, tm).Scan(&n)
			m[tm] = n
		}
		return m
	}
	cur := `SELECT p.id, -bm25(parts_fts, 1.0, 0.5) AS score, p.text, p.created_at, p.seq, p.role, p.kind, p.tool,
			s.id, s.external_id, s.provider, s.worktree, t.id, t.key, t.seq
		FROM parts_fts
		JOIN parts p ON p.id = parts_fts.rowid
		JOIN sessions s ON s.id = p.session_id
		JOIN turns t ON t.id = p.turn_id
		WHERE parts_fts MATCH ? AND p.account_id = 1 AND s.worktree = ? ORDER BY score DESC, p.id DESC LIMIT 60`
	ftsOnly := `SELECT rowid, bm25(parts_fts, 1.0, 0.5) AS s FROM parts_fts WHERE parts_fts MATCH ? ORDER BY s LIMIT 60`
	count := `SELECT count(*) FROM parts_fts WHERE parts_fts MATCH ?`
	window := strings.Replace(cur, "WHERE parts_fts MATCH ?", "WHERE parts_fts MATCH ? AND parts_fts.rowid > ?", 1)
	var maxID int
	db.QueryRow(`SELECT max(id) FROM parts`).Scan(&maxID)
	var matchesAnd []int
	rows, _ := db.Query("EXPLAIN QUERY PLAN "+cur, "x", wt)
	for rows.Next() {
		var a, b, c int
		var d string
		rows.Scan(&a, &b, &c, &d)
		fmt.Println("plan:", d)
	}
	rows.Close()
	run := func(q string, args ...any) time.Duration {
		t0 := time.Now()
		rows, err := db.Query(q, args...)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
		}
		rows.Close()
		return time.Since(t0)
	}
	qs := Queries(1, 200)
	var lat = map[string][]time.Duration{}
	var matches, matchesPruned []int
	var nterms, npruned []int
	for pass := 0; pass < 2; pass++ {
		for _, q := range qs {
			terms := slices.Compact(text.QueryTokens(q.Text))
			seen := map[string]bool{}
			var u []string
			for _, x := range terms {
				if !seen[x] {
					seen[x] = true
					u = append(u, x)
				}
			}
			if len(u) > 12 {
				u = u[:12]
			}
			if len(u) == 0 {
				continue
			}
			t0 := time.Now()
			d := df(u)
			vocab := time.Since(t0)
			// prune terms in more than 5% of docs, keep the rarest one at least
			var pr []string
			rarest := u[0]
			for _, x := range u {
				if d[x] < d[rarest] && d[x] > 0 || d[rarest] == 0 {
					rarest = x
				}
				if d[x] > 0 && float64(d[x]) <= 0.05*float64(docs) {
					pr = append(pr, x)
				}
			}
			if len(pr) == 0 {
				pr = []string{rarest}
			}
			e, ep := scratchExpr(u), scratchExpr(pr)
			if pass == 0 {
				continue // warm
			}
			lat["vocab"] = append(lat["vocab"], vocab)
			lat["A current"] = append(lat["A current"], run(cur, e, wt))
			lat["B fts-only"] = append(lat["B fts-only"], run(ftsOnly, e))
			lat["C current pruned"] = append(lat["C current pruned"], run(cur, ep, wt))
			lat["D fts-only pruned"] = append(lat["D fts-only pruned"], run(ftsOnly, ep))
			ea := strings.Join(strings.Split(e, " OR "), " AND ")
			lat["E current AND"] = append(lat["E current AND"], run(cur, ea, wt))
			lat["F current newest20%"] = append(lat["F current newest20%"], run(window, e, maxID*8/10, wt))
			var na int
			db.QueryRow(count, ea).Scan(&na)
			matchesAnd = append(matchesAnd, na)
			var n, np int
			db.QueryRow(count, e).Scan(&n)
			db.QueryRow(count, ep).Scan(&np)
			matches, matchesPruned = append(matches, n), append(matchesPruned, np)
			nterms, npruned = append(nterms, len(u)), append(npruned, len(pr))
		}
	}
	keys := []string{}
	for k := range lat {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	pct := func(d []time.Duration, p int) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[max(0, (p*len(s)+99)/100-1)]) / 1e6
	}
	for _, k := range keys {
		fmt.Printf("%-20s p50 %7.2f ms  p95 %7.2f ms\n", k, pct(lat[k], 50), pct(lat[k], 95))
	}
	med := func(x []int) int { s := slices.Clone(x); slices.Sort(s); return s[len(s)/2] }
	fmt.Printf("AND matches median %d\n", med(matchesAnd))
	fmt.Printf("docs %d; matches median %d (pruned %d); terms median %d (pruned %d)\n", docs, med(matches), med(matchesPruned), med(nterms), med(npruned))
}
