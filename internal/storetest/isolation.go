package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// seeded is one account's rows, as ids to probe from the other account.
type seeded struct {
	session, turn, part, statement, episode, receipt, pending, candidate int64
}

// seed writes one of everything for acct, with the same words and places
// for every account, so a leak shows as a hit.
func (e *env) seed(acct memory.AccountID) seeded {
	t := e.t
	var s seeded
	var turns map[string]int64
	s.session, turns = e.save(acct, session("shared-ext", wtA, day0, "secret plan: migrate billing to Postgres", "ok"))
	s.turn = turns["0"]
	ss := must(e.Store.LoadSession(e.ctx, acct, "shared-ext"))(t)
	s.part = ss.Turns[0].Parts[0].ID
	f := fact("billing", "database", "Postgres", day0)
	f.Evidence = []memory.Evidence{{SessionID: s.session, TurnID: s.turn, Source: "turn"}}
	f.Writer, f.Tier = memory.WriterModel, memory.TierInferred
	s.statement = e.apply(acct, f)[0].ID
	s.episode = must(e.Store.SaveEpisode(e.ctx, acct, e.episode(s.session, s.turn, wtA, day0, "billing migration plan")))(t)
	ok(t, e.Store.SaveProfile(e.ctx, acct, "works on billing", []int64{s.statement}))
	ok(t, e.Store.AddCandidates(e.ctx, acct, s.session, s.turn, []memory.Draft{draft("billing uses Postgres")}, "x", day0))
	s.candidate = must(e.Store.DueCandidates(e.ctx, acct, day0, 10))(t)[0].ID
	ok(t, e.Store.Enqueue(e.ctx, acct, "tools", s.session, s.turn))
	s.receipt = must(e.Store.SaveReceipt(e.ctx, acct, receipt("shared-ext", "key", "billing", memory.ReceiptItem{Layer: memory.L1, ID: s.statement})))(t)
	s.pending = must(e.Store.AddPending(e.ctx, acct, wtA.Worktree, []byte(`{"billing":1}`)))(t)
	ok(t, e.Store.SetSetting(e.ctx, acct, "capture", "off"))
	ok(t, e.Store.SetSessionPreset(e.ctx, acct, "claude", "shared-ext", "quiet"))
	ok(t, e.Store.SetPlacePreset(e.ctx, acct, wtA.Worktree, "quiet"))
	ok(t, e.Store.SaveSource(e.ctx, acct, "/t/shared.jsonl", "claude", []transcript.File{{Path: "/t/shared.jsonl", Size: 1}}, 1))
	must(e.Store.SaveExtraction(e.ctx, acct, memory.Extraction{SessionID: s.session, Version: "v1", Slug: "billing-slug", RawMemory: "billing"}))(t)
	if !must(e.Store.AcquireLease(e.ctx, acct, "phase2", "owner-of-"+itoa(int64(acct)), day0.Add(time.Hour)))(t) {
		t.Fatalf("account %d: lease", acct)
	}
	return s
}

func testIsolation(t *testing.T, open Open) {
	e := newEnv(t, open)
	me, them := memory.LocalAccount, e.Other
	if them == 0 || them == me {
		t.Fatalf("the fixture's second account is %d", them)
	}
	o := e.seed(them)
	ctx := e.ctx

	// Reads from an empty account see nothing of the other's.
	notFound := func(name string, err error) {
		t.Helper()
		if memory.ErrorCode(err) != memory.CodeNotFound {
			t.Errorf("%s of another account's row: %v, want not_found", name, err)
		}
	}
	empty := func(name string, n int, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if n != 0 {
			t.Errorf("%s sees %d of another account's rows", name, n)
		}
	}
	probe := func() {
		t.Helper()
		_, err := e.Store.LoadSession(ctx, me, "shared-ext")
		notFound("LoadSession by ref", err)
		_, err = e.Store.LoadSession(ctx, me, itoa(o.session))
		notFound("LoadSession by id", err)
		_, err = e.Store.SessionOfTurn(ctx, me, o.turn)
		notFound("SessionOfTurn", err)
		_, err = e.Store.Part(ctx, me, o.part)
		notFound("Part", err)
		_, err = e.Store.Statement(ctx, me, o.statement)
		notFound("Statement", err)
		_, err = e.Store.Episode(ctx, me, o.episode)
		notFound("Episode", err)
		if id, err := e.Store.SessionID(ctx, me, "test", "shared-ext"); err != nil || id != 0 {
			t.Errorf("SessionID: %d %v", id, err)
		}
		l, err := e.Store.ListSessions(ctx, me, 0)
		empty("ListSessions", len(l), err)
		_, _, found, err := e.Store.SourceFiles(ctx, me, "/t/shared.jsonl")
		empty("SourceFiles", count([]bool{found}), err)
		for _, layer := range []memory.Layer{memory.L0, memory.L1, memory.L2, memory.L3} {
			for _, r := range []memory.Rung{memory.RungWorktree, memory.RungEverywhere} {
				h, err := e.Store.SearchLayer(ctx, me, layer, memory.SearchQuery{Terms: terms("billing postgres migrate plan"), Place: wtA, Rung: r, Untiered: true, Limit: 50})
				empty("SearchLayer "+string(layer)+" "+string(r), len(h), err)
			}
		}
		st, err := e.Store.Statements(ctx, me, memory.StatementFilter{})
		empty("Statements", len(st), err)
		st, err = e.Store.Statements(ctx, me, memory.StatementFilter{IDs: []int64{o.statement}, Session: o.session})
		empty("Statements by id and session", len(st), err)
		pc, err := e.Store.PredicateCounts(ctx, me)
		empty("PredicateCounts", len(pc), err)
		eps, err := e.Store.Episodes(ctx, me, true, 0)
		empty("Episodes", len(eps), err)
		eps, err = e.Store.SessionEpisodes(ctx, me, o.session)
		empty("SessionEpisodes", len(eps), err)
		eps, err = e.Store.LastEpisodes(ctx, me, wtA.Worktree, 0, 10)
		empty("LastEpisodes", len(eps), err)
		_, found, err = e.Store.Profile(ctx, me)
		empty("Profile", count([]bool{found}), err)
		due, err := e.Store.AnyDue(ctx, me, day0.AddDate(1, 0, 0))
		empty("AnyDue", count([]bool{due}), err)
		cs, err := e.Store.DueCandidates(ctx, me, day0.AddDate(1, 0, 0), 10)
		empty("DueCandidates", len(cs), err)
		q, err := e.Store.Queued(ctx, me, 10)
		empty("Queued", len(q), err)
		rs, err := e.Store.Receipts(ctx, me, "", "", 0)
		empty("Receipts", len(rs), err)
		rs, err = e.Store.Receipts(ctx, me, "claude", "shared-ext", 0)
		empty("Receipts of a session", len(rs), err)
		p, err := e.Store.SessionPreset(ctx, me, "claude", "shared-ext")
		empty("SessionPreset", len(p), err)
		hb, err := e.Store.HoldBackCandidates(ctx, me, time.Time{}, 0)
		empty("HoldBackCandidates", len(hb), err)
		pw, err := e.Store.Pending(ctx, me, "", time.Time{}, day0.AddDate(1, 0, 0))
		empty("Pending", len(pw), err)
		set, err := e.Store.Settings(ctx, me)
		empty("Settings", len(set), err)
		el, err := e.Store.EligibleSessions(ctx, me, "v1", day0.AddDate(1, 0, 0), time.Time{}, day0.AddDate(1, 0, 0), 10)
		empty("EligibleSessions", len(el), err)
		xs, err := e.Store.Extractions(ctx, me, "v1")
		empty("Extractions", len(xs), err)
		n, err := e.Store.JobAttempts(ctx, me, o.session, "v1")
		empty("JobAttempts", n, err)
	}
	probe()

	// Writes through my account with the other's ids and names change
	// nothing of theirs.
	_, err := e.Store.WithdrawStatement(ctx, me, o.statement, memory.ReasonForgotten)
	notFound("WithdrawStatement", err)
	_, err = e.Store.ReopenStatement(ctx, me, o.statement, memory.Sight{All: true})
	notFound("ReopenStatement", err)
	_, err = e.Store.PinStatement(ctx, me, o.statement, true)
	notFound("PinStatement", err)
	_, err = e.Store.SetEpisodeState(ctx, me, o.episode, memory.ReasonForgotten)
	notFound("SetEpisodeState", err)
	_, err = e.Store.PinEpisode(ctx, me, o.episode, true)
	notFound("PinEpisode", err)
	ok(t, e.Store.MarkUsed(ctx, me, []int64{o.statement}))
	ok(t, e.Store.MarkEpisodesUsed(ctx, me, []int64{o.episode}))
	ok(t, e.Store.MarkExtractionsUsed(ctx, me, []string{"billing-slug"}))
	ok(t, e.Store.DropCandidate(ctx, me, o.candidate, "x"))
	ok(t, e.Store.Unqueue(ctx, me, must(e.Store.Queued(ctx, them, 10))(t)[0].ID))
	ok(t, e.Store.SettlePending(ctx, me, o.pending, "dropped", 0))
	ok(t, e.Store.LinkReceipts(ctx, me, "claude", "shared-ext", "key", 5))
	ok(t, e.Store.SetSetting(ctx, me, "capture", ""))
	if p := must(e.Store.TakePlacePreset(ctx, me, wtA.Worktree))(t); p != "" {
		t.Errorf("TakePlacePreset took another account's preset %q", p)
	}
	if n := must(e.Store.CapEpisodes(ctx, me, 0))(t); n != 0 {
		t.Errorf("CapEpisodes capped %d of another account's episodes", n)
	}
	if n := must(e.Store.PruneExtractions(ctx, me, "v1", day0.AddDate(1, 0, 0)))(t); n != 0 {
		t.Errorf("PruneExtractions pruned %d of another account's", n)
	}
	ok(t, e.Store.CaptureDone(ctx, me, []int64{o.turn}))
	ok(t, e.Store.ResetPhases(ctx, me))
	ok(t, e.Store.ReleaseLease(ctx, me, "phase2", "owner-of-"+itoa(int64(them))))
	if !must(e.Store.AcquireLease(ctx, me, "phase2", "mine", day0.Add(time.Hour)))(t) {
		t.Error("a lease of the same name in another account blocks mine")
	}
	if must(e.Store.RenewLease(ctx, me, "phase2", "owner-of-"+itoa(int64(them)), day0.Add(2*time.Hour)))(t) {
		t.Error("renewed another account's lease")
	}
	if must(e.Store.ClaimJob(ctx, me, o.session, "v1", "me", day0.Add(time.Hour)))(t) {
		// A claim names a session of my account; theirs is not mine to claim.
		t.Error("claimed another account's session")
	}
	ok(t, e.Store.FinishJob(ctx, me, o.session, "v1", "failed", "x", time.Time{}))
	// An episode saved for me on their turn must not replace theirs.
	_, _ = e.Store.SaveEpisode(ctx, me, e.episode(o.session, o.turn, wtA, day0, "overwrite attempt"))
	// A statement written for me whose slot matches theirs must not close theirs.
	mine := fact("billing", "database", "MySQL", day0.Add(time.Hour))
	mine.Writer, mine.Tier = memory.WriterModel, memory.TierInferred
	a := e.applyOne(me, mine)
	if a.Action != temporal.Insert || len(a.Statement.Evidence) != 0 {
		t.Errorf("my write: %+v", a)
	}
	// Evidence of mine that names their session and turn reads back as
	// nothing of theirs (the ids came from a caller, not from my rows).
	leak := fact("deploy", "target", "Render", day0)
	leak.Evidence = []memory.Evidence{{SessionID: o.session, TurnID: o.turn, Source: "cli"}}
	for _, ev := range must(e.Store.Statement(ctx, me, e.applyOne(me, leak).Statement.ID))(t).Evidence {
		if ev.SessionRef != "" || ev.TurnKey != "" || ev.TurnSeq != 0 {
			t.Errorf("evidence naming another account's turn reads back %+v", ev)
		}
	}
	note := memory.Statement{Kind: memory.KindNote, Object: "secret plan: migrate billing to Postgres", Cardinality: memory.Many,
		Tier: memory.TierAsserted, Writer: memory.WriterUser, Confidence: 0.5, ValidAt: day0}
	if n := e.applyOne(me, note); n.Action != temporal.Insert {
		t.Errorf("a note of mine merged into another account's rows: %v", n.Action)
	}

	// Theirs is as it was.
	theirs := must(e.Store.Statement(ctx, them, o.statement))(t)
	if !theirs.Current() || theirs.Pinned || theirs.UsageCount != 0 || theirs.Object != "Postgres" {
		t.Errorf("another account's statement changed: %+v", theirs)
	}
	ep := must(e.Store.Episode(ctx, them, o.episode))(t)
	if !ep.ExpiredAt.IsZero() || ep.Pinned || ep.UsageCount != 0 || ep.Summary != "billing migration plan" {
		t.Errorf("another account's episode changed: %+v", ep)
	}
	if cs := must(e.Store.DueCandidates(ctx, them, day0, 10))(t); len(cs) != 1 {
		t.Errorf("another account's candidate was dropped")
	}
	if q := must(e.Store.Queued(ctx, them, 10))(t); len(q) != 1 {
		t.Errorf("another account's queue entry was removed")
	}
	if pw := must(e.Store.Pending(ctx, them, "", time.Time{}, day0.AddDate(1, 0, 0)))(t); len(pw) != 1 {
		t.Errorf("another account's pending write was settled")
	}
	if rs := must(e.Store.Receipts(ctx, them, "", "", 0))(t); len(rs) != 1 || rs[0].TurnID != 0 {
		t.Errorf("another account's receipt was linked: %+v", rs)
	}
	if s := must(e.Store.Settings(ctx, them))(t); s["capture"] != "off" {
		t.Errorf("another account's setting changed: %v", s)
	}
	if p := must(e.Store.TakePlacePreset(ctx, them, wtA.Worktree))(t); p != "quiet" {
		t.Errorf("another account's place preset: %q", p)
	}
	xs := must(e.Store.Extractions(ctx, them, "v1"))(t)
	if len(xs) != 1 || xs[0].UsageCount != 0 {
		t.Errorf("another account's extraction changed: %+v", xs)
	}
	if ep := must(e.Store.Episodes(ctx, them, false, 0))(t); len(ep) != 1 {
		t.Errorf("another account's episodes were capped")
	}
	if !must(e.Store.RenewLease(ctx, them, "phase2", "owner-of-"+itoa(int64(them)), day0.Add(time.Hour)))(t) {
		t.Errorf("another account's lease was released")
	}
	again := session("shared-ext", wtA, day0, "secret plan: migrate billing to Postgres", "ok")
	if c := must(e.Store.SaveSession(ctx, them, again))(t); c.TurnsUnchanged != 2 || c.Changed["0"] != o.turn {
		t.Errorf("another account's turn was marked captured: %+v", c)
	}
	if l := must(e.Store.ListSessions(ctx, them, 0))(t); len(l) != 1 {
		t.Errorf("their sessions: %d", len(l))
	}
	if h := must(e.Store.SearchLayer(ctx, them, memory.L1, memory.SearchQuery{Terms: terms("billing"), Place: wtA, Limit: 10}))(t); len(h) != 1 {
		t.Errorf("their statements in search: %v", texts(h))
	}

	// And my rows are mine: my search finds my rows only.
	h := must(e.Store.SearchLayer(ctx, me, memory.L1, memory.SearchQuery{Terms: terms("billing"), Place: wtA, Untiered: true, Limit: 10}))(t)
	var objs []string
	for _, m := range h {
		objs = append(objs, m.Text)
	}
	slices.Sort(objs)
	if len(h) != 2 || slices.Contains(objs, "billing database Postgres") {
		t.Errorf("my search: %v", objs)
	}
}

func testHealth(t *testing.T, open Open) {
	e := newEnv(t, open)
	e.seed(memory.LocalAccount)
	h := must(e.Store.Health(e.ctx))(t)
	if !h.Healthy() || h.Kind == "" || h.SchemaVersion == 0 {
		t.Fatalf("health: %+v", h)
	}
	for _, table := range []string{"sessions", "turns", "parts", "statements", "episodes"} {
		if h.Rows[table] == 0 {
			t.Errorf("health counts no %s: %v", table, h.Rows)
		}
	}
}
