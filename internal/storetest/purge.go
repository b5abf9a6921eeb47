package storetest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// testPurge: a purge deletes exactly the account's retracted and
// forgotten statements and forgotten episodes and the receipts,
// candidates and pending writes holding their text; it keeps everything
// else, and nothing of another account.
func testPurge(t *testing.T, open Open) {
	e := newEnv(t, open)
	p, isPurger := e.Store.(engine.Purger)
	if !isPurger {
		t.Fatalf("%T does not implement engine.Purger", e.Store)
	}
	// Each account holds the same rows, so a purge that crossed accounts
	// would show.
	type rows struct {
		kept, forgotten, retracted, replaced, episode, keptEpisode, pending, keptPending int64
	}
	seed := func(acct memory.AccountID) rows {
		var r rows
		sid, turns := e.save(acct, session("purge", wtA, day0, "a", "b", "c"))
		note := func(obj string) memory.Statement {
			return memory.Statement{Kind: memory.KindNote, Object: obj, Class: memory.ClassDecision, Cardinality: memory.Many,
				Tier: memory.TierAsserted, Writer: memory.WriterUser, Confidence: 0.8, ValidAt: day0}
		}
		st := e.apply(acct, note("keep the quartzmellow rule"), note("the vault code is glimmerfax"))
		r.kept, r.forgotten = st[0].ID, st[1].ID
		old := fact("billing", "provider", "oldpay", day0)
		old.Evidence = []memory.Evidence{{SessionID: sid, TurnID: turns["0"], Source: "turn", Quote: "oldpay"}}
		r.replaced = e.apply(acct, old)[0].ID
		retracted := fact("billing", "provider", "snarkleberry payments", day0.Add(time.Hour))
		retracted.Evidence = []memory.Evidence{{SessionID: sid, TurnID: turns["1"], Source: "turn", Quote: "snarkleberry"}}
		r.retracted = e.apply(acct, retracted)[0].ID
		if got := e.get(acct, r.replaced); got.ReplacedBy != r.retracted {
			t.Fatalf("control: the old fact is not replaced by the retracted one: %+v", got)
		}
		r.episode = must(e.Store.SaveEpisode(e.ctx, acct, e.episode(sid, turns["0"], wtA, day0, "debugged the glimmerfax vault")))(t)
		r.keptEpisode = must(e.Store.SaveEpisode(e.ctx, acct, e.episode(sid, turns["2"], wtA, day0, "kept episode")))(t)
		must(e.Store.SaveReceipt(e.ctx, acct, receipt("s1", "k1", "the vault code is glimmerfax", memory.ReceiptItem{Layer: memory.L1, ID: r.forgotten})))(t)
		must(e.Store.SaveReceipt(e.ctx, acct, receipt("s1", "k2", "quartzmellow", memory.ReceiptItem{Layer: memory.L1, ID: r.kept})))(t)
		ok(t, e.Store.AddCandidates(e.ctx, acct, sid, turns["1"], []memory.Draft{draft("the vault code is glimmerfax, they said"), draft("tabs please")}, "x", day0))
		r.pending = must(e.Store.AddPending(e.ctx, acct, wtA.Worktree, []byte(`{"note":"snarkleberry payments"}`)))(t)
		r.keptPending = must(e.Store.AddPending(e.ctx, acct, wtA.Worktree, []byte(`{"note":"other"}`)))(t)
		must(e.Store.WithdrawStatement(e.ctx, acct, r.forgotten, memory.ReasonForgotten))(t)
		must(e.Store.WithdrawStatement(e.ctx, acct, r.retracted, memory.ReasonRetracted))(t)
		must(e.Store.SetEpisodeState(e.ctx, acct, r.episode, memory.ReasonForgotten))(t)
		return r
	}
	me, them := seed(memory.LocalAccount), seed(e.Other)

	c := must(p.Purge(e.ctx, memory.LocalAccount))(t)
	// Traces: two receipts (with their items), one candidate, one pending
	// write; both stores count the receipt's items as traces too.
	if c.Statements != 2 || c.Episodes != 1 || c.Traces != 4 {
		t.Fatalf("purge counts: %+v", c)
	}
	check := func(acct memory.AccountID, r rows, purged bool) {
		t.Helper()
		for _, id := range []int64{r.forgotten, r.retracted} {
			_, err := e.Store.Statement(e.ctx, acct, id)
			if purged && memory.ErrorCode(err) != memory.CodeNotFound {
				t.Errorf("account %d: statement %d survived the purge: %v", acct, id, err)
			}
			if !purged && err != nil {
				t.Errorf("account %d: statement %d was purged by another account's purge: %v", acct, id, err)
			}
		}
		if got := e.get(acct, r.kept); got.Object != "keep the quartzmellow rule" {
			t.Errorf("account %d: kept note: %+v", acct, got)
		}
		if got := e.get(acct, r.replaced); purged != (got.ReplacedBy == 0) {
			t.Errorf("account %d: the replaced fact points at %d (purged %v)", acct, got.ReplacedBy, purged)
		}
		_, err := e.Store.Episode(e.ctx, acct, r.episode)
		if purged != (memory.ErrorCode(err) == memory.CodeNotFound) {
			t.Errorf("account %d: forgotten episode (purged %v): %v", acct, purged, err)
		}
		must(e.Store.Episode(e.ctx, acct, r.keptEpisode))(t)
		var reqs []string
		for _, rc := range must(e.Store.Receipts(e.ctx, acct, "claude", "s1", 10))(t) {
			reqs = append(reqs, rc.Request)
		}
		slices.Sort(reqs)
		want := []string{"quartzmellow", "the vault code is glimmerfax"}
		if purged {
			want = want[:1]
		}
		if !slices.Equal(reqs, want) {
			t.Errorf("account %d: receipts %q, want %q", acct, reqs, want)
		}
		var drafts []string
		for _, cd := range must(e.Store.DueCandidates(e.ctx, acct, day0, 10))(t) {
			drafts = append(drafts, cd.Draft.Object)
		}
		if purged != !slices.ContainsFunc(drafts, func(s string) bool { return strings.Contains(s, "glimmerfax") }) || !slices.Contains(drafts, "tabs please") {
			t.Errorf("account %d: candidates %q (purged %v)", acct, drafts, purged)
		}
		var pend []int64
		for _, pw := range must(e.Store.Pending(e.ctx, acct, wtA.Worktree, time.Time{}, day0.Add(24*time.Hour)))(t) {
			pend = append(pend, pw.ID)
		}
		if purged == slices.Contains(pend, r.pending) || !slices.Contains(pend, r.keptPending) {
			t.Errorf("account %d: pending writes %v (purged %v)", acct, pend, purged)
		}
	}
	check(memory.LocalAccount, me, true)
	check(e.Other, them, false)

	// A second purge finds nothing left.
	if c := must(p.Purge(e.ctx, memory.LocalAccount))(t); c != (memory.PurgeCounts{}) {
		t.Fatalf("second purge: %+v", c)
	}
}
