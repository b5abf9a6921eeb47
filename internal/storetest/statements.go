package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// proposal builds the engine's proposal for a statement: the write rules
// of temporal, a sight of every rung of wtA.
func proposal(st memory.Statement) temporal.Proposal {
	see := memory.SightOf(wtA, memory.RungEverywhere)
	decide := func(slot []memory.Statement) temporal.Plan { return temporal.Decide(st, slot, 0.7) }
	if st.Kind == memory.KindNote {
		decide = func(similar []memory.Statement) temporal.Plan { return temporal.DecideNote(st, similar, 0.6) }
	}
	return temporal.Proposal{Statement: st, Sight: see, Decide: decide}
}

// apply writes statements one proposal each, in one transaction.
func (e *env) apply(acct memory.AccountID, sts ...memory.Statement) []memory.Statement {
	e.t.Helper()
	var ps []temporal.Proposal
	for _, st := range sts {
		ps = append(ps, proposal(st))
	}
	var out []memory.Statement
	for _, a := range must(e.Store.ApplyStatements(e.ctx, acct, ps))(e.t) {
		out = append(out, a.Statement)
	}
	return out
}

func (e *env) applyOne(acct memory.AccountID, st memory.Statement) temporal.Applied {
	e.t.Helper()
	out := must(e.Store.ApplyStatements(e.ctx, acct, []temporal.Proposal{proposal(st)}))(e.t)
	if len(out) != 1 {
		e.t.Fatalf("one proposal, %d results", len(out))
	}
	return out[0]
}

func fact(subj, pred, obj string, valid time.Time) memory.Statement {
	return memory.Statement{Kind: memory.KindFact, Subject: subj, Predicate: pred, Object: obj, Class: memory.ClassEnvironment,
		Category: "deploy", Cardinality: memory.One, Tier: memory.TierAsserted, Writer: memory.WriterUser,
		Scope: memory.Scope{Rung: memory.RungProject, Key: wtA.Project}, Confidence: 0.8, ValidAt: valid}
}

func (e *env) get(acct memory.AccountID, id int64) memory.Statement {
	e.t.Helper()
	return must(e.Store.Statement(e.ctx, acct, id))(e.t)
}

func objects(rows []memory.Statement) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Object)
	}
	return out
}

func testStatements(t *testing.T, open Open) {
	t.Run("what changed lately", func(t *testing.T) {
		e := newEnv(t, open)
		e.applyOne(memory.LocalAccount, fact("production", "deploy_target", "Render, Oregon", day0))
		e.clock.Add(time.Hour)
		e.applyOne(memory.LocalAccount, fact("production", "deploy_target", "Fly.io, Frankfurt", day0.AddDate(0, 0, 1)))
		// What changed lately: the superseded row, expired an hour in.
		for _, tc := range []struct {
			since time.Time
			want  []string
		}{
			{day0.Add(30 * time.Minute), []string{"Render, Oregon"}},
			{day0.Add(time.Hour), []string{"Render, Oregon"}},
			{day0.Add(2 * time.Hour), nil},
		} {
			got := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{ExpiredSince: tc.since}))(t)
			if !slices.Equal(objects(got), tc.want) {
				t.Errorf("expired since %v: %v, want %v", tc.since, objects(got), tc.want)
			}
		}
		// Newest closed first, by reason: a third value closes the second
		// later; a retracted row is closed for another reason.
		e.clock.Add(time.Hour)
		e.applyOne(memory.LocalAccount, fact("production", "deploy_target", "Hetzner, Falkenstein", day0.AddDate(0, 0, 2)))
		other := e.applyOne(memory.LocalAccount, fact("staging", "host", "stage-1", day0))
		e.clock.Add(time.Hour)
		must(e.Store.WithdrawStatement(e.ctx, memory.LocalAccount, other.Statement.ID, memory.ReasonRetracted))(t)
		for _, tc := range []struct {
			f    memory.StatementFilter
			want []string
		}{
			{memory.StatementFilter{Reason: memory.ReasonSuperseded, ByExpiry: true}, []string{"Fly.io, Frankfurt", "Render, Oregon"}},
			{memory.StatementFilter{Reason: memory.ReasonSuperseded, ByExpiry: true, Limit: 1}, []string{"Fly.io, Frankfurt"}},
			{memory.StatementFilter{Reason: memory.ReasonRetracted}, []string{"stage-1"}},
			{memory.StatementFilter{ByExpiry: true, ExpiredSince: day0.Add(90 * time.Minute)}, []string{"stage-1", "Fly.io, Frankfurt"}},
			// No longer true in the world, newest first: the retracted row
			// was never closed in the world.
			{memory.StatementFilter{Closed: true}, []string{"Render, Oregon", "Fly.io, Frankfurt"}},
			{memory.StatementFilter{Closed: true, ByInvalid: true}, []string{"Fly.io, Frankfurt", "Render, Oregon"}},
			{memory.StatementFilter{Closed: true, ByInvalid: true, Limit: 1}, []string{"Fly.io, Frankfurt"}},
			{memory.StatementFilter{Closed: true, Current: true}, nil},
		} {
			if got := objects(must(e.Store.Statements(e.ctx, memory.LocalAccount, tc.f))(t)); !slices.Equal(got, tc.want) {
				t.Errorf("filter %+v: %v, want %v", tc.f, got, tc.want)
			}
		}
	})
	t.Run("two clocks and supersession", func(t *testing.T) {
		e := newEnv(t, open)
		a := e.applyOne(memory.LocalAccount, fact("production", "deploy_target", "Render, Oregon", day0))
		if a.Action != temporal.Insert || a.Statement.ID == 0 || !a.Statement.CreatedAt.Equal(day0) {
			t.Fatalf("first value: %+v", a)
		}
		e.clock.Add(time.Hour)
		b := e.applyOne(memory.LocalAccount, fact("production", "deploy_target", "Fly.io, Frankfurt", day0.AddDate(0, 0, 1)))
		if b.Action != temporal.Insert {
			t.Fatalf("new value: %v", b.Action)
		}
		old := e.get(memory.LocalAccount, a.Statement.ID)
		if !old.InvalidAt.Equal(day0.AddDate(0, 0, 1)) || !old.ExpiredAt.Equal(day0.Add(time.Hour)) ||
			old.Reason != memory.ReasonSuperseded || old.ReplacedBy != b.Statement.ID {
			t.Fatalf("superseded row: %+v", old)
		}
		cur := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Current: true}))(t)
		if !slices.Equal(objects(cur), []string{"Fly.io, Frankfurt"}) {
			t.Fatalf("current: %v", objects(cur))
		}
		// As-of on both clocks over what the store returns.
		all := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{}))(t)
		if got := objects(temporal.AsOf(all, day0.Add(12*time.Hour), temporal.World)); !slices.Equal(got, []string{"Render, Oregon"}) {
			t.Fatalf("world as-of day 0.5: %v", got)
		}
		if got := objects(temporal.AsOf(all, day0.Add(30*time.Minute), temporal.System)); !slices.Equal(got, []string{"Render, Oregon"}) {
			t.Fatalf("system as-of before the second write: %v", got)
		}
		if got := objects(temporal.AsOf(all, day0.Add(2*time.Hour), temporal.System)); !slices.Equal(got, []string{"Fly.io, Frankfurt"}) {
			t.Fatalf("system as-of after the second write: %v", got)
		}
		// Restatement reinforces: no new row, evidence grows, confidence rises.
		e.clock.Add(time.Hour)
		r := fact("production", "deploy_target", "Fly.io, Frankfurt", day0.AddDate(0, 0, 2))
		r.Evidence = []memory.Evidence{{Source: "cli", Quote: "still Fly.io, Frankfurt"}}
		re := e.applyOne(memory.LocalAccount, r)
		if re.Action != temporal.Restate || re.Statement.ID != b.Statement.ID || re.Statement.Confidence <= 0.8 || len(re.Statement.Evidence) != 1 {
			t.Fatalf("restatement: %+v", re)
		}
		if n := len(must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{}))(t)); n != 2 {
			t.Fatalf("rows after restatement: %d", n)
		}
		// A slot's rows, old and new, whatever the subject's case; never
		// another slot of the same predicate.
		e.applyOne(memory.LocalAccount, fact("staging", "deploy_target", "Render, Ohio", day0))
		slot := fact("Production", "deploy_target", "", day0).Slot()
		rows := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Slots: []string{slot}, Predicates: []string{"deploy_target"}}))(t)
		if got := objects(rows); !slices.Equal(got, []string{"Render, Oregon", "Fly.io, Frankfurt"}) {
			t.Fatalf("the production slot: %v", got)
		}
	})

	t.Run("late arrival", func(t *testing.T) {
		e := newEnv(t, open)
		a := e.applyOne(memory.LocalAccount, fact("api", "owner", "alice", day0))
		b := e.applyOne(memory.LocalAccount, fact("api", "owner", "bob", day0.AddDate(0, 0, 10)))
		e.clock.Add(time.Minute)
		late := e.applyOne(memory.LocalAccount, fact("api", "owner", "carol", day0.AddDate(0, 0, 5)))
		if late.Action != temporal.InsertLate {
			t.Fatalf("late arrival: %v", late.Action)
		}
		l := e.get(memory.LocalAccount, late.Statement.ID)
		if !l.InvalidAt.Equal(day0.AddDate(0, 0, 10)) || l.ExpiredAt.IsZero() || l.Reason != memory.ReasonSuperseded {
			t.Fatalf("stored closed, as history: %+v", l)
		}
		old := e.get(memory.LocalAccount, a.Statement.ID)
		if old.Reason != memory.ReasonRevised || old.ReplacedBy != late.Statement.ID {
			t.Fatalf("the cut row is revised: %+v", old)
		}
		all := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Live: true}))(t)
		var copyRow *memory.Statement
		for i := range all {
			if all[i].Object == "alice" {
				copyRow = &all[i]
			}
		}
		if copyRow == nil || copyRow.ID == a.Statement.ID || !copyRow.InvalidAt.Equal(day0.AddDate(0, 0, 5)) {
			t.Fatalf("a re-windowed copy of alice: %+v", all)
		}
		for at, want := range map[time.Time]string{day0.AddDate(0, 0, 1): "alice", day0.AddDate(0, 0, 6): "carol", day0.AddDate(0, 0, 11): "bob"} {
			if got := objects(temporal.AsOf(all, at, temporal.World)); !slices.Equal(got, []string{want}) {
				t.Errorf("world as-of %v: %v, want %s", at, got, want)
			}
		}
		if cur := e.get(memory.LocalAccount, b.Statement.ID); !cur.Current() {
			t.Fatalf("bob stays current: %+v", cur)
		}
		// Reopening a revised row is refused: its copy is the row to reopen.
		_, err := e.Store.ReopenStatement(e.ctx, memory.LocalAccount, a.Statement.ID, memory.SightOf(wtA, memory.RungEverywhere))
		wantCode(t, err, memory.CodeConflict)
	})

	t.Run("many values, sight and notes", func(t *testing.T) {
		e := newEnv(t, open)
		ev := func(obj string) memory.Statement {
			s := fact("repo", "released", obj, day0)
			s.Kind, s.Cardinality = memory.KindEvent, memory.Many
			return s
		}
		e.apply(memory.LocalAccount, ev("v1.0.0"), ev("v1.1.0"))
		if cur := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Current: true, Kinds: []memory.Kind{memory.KindEvent}}))(t); len(cur) != 2 {
			t.Fatalf("many-value slot keeps both: %v", objects(cur))
		}
		// A row out of the writer's sight is not in its slot: not closed.
		other := fact("db", "engine", "mysql", day0)
		other.Scope = memory.Scope{Rung: memory.RungProject, Key: wtD.Project}
		hidden := e.applyOne(memory.LocalAccount, other)
		e.applyOne(memory.LocalAccount, fact("db", "engine", "postgres", day0.Add(time.Hour)))
		if h := e.get(memory.LocalAccount, hidden.Statement.ID); !h.Current() {
			t.Fatalf("a row out of sight was closed: %+v", h)
		}
		see := memory.SightOf(wtA, memory.RungEverywhere)
		inSight := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Current: true, Sight: &see, Predicates: []string{"engine"}}))(t)
		if !slices.Equal(objects(inSight), []string{"postgres"}) {
			t.Fatalf("sight filter: %v", objects(inSight))
		}
		// A near-copy of a current note reinforces it.
		note := memory.Statement{Kind: memory.KindNote, Object: "always run go vet before pushing a branch", Class: memory.ClassPreference,
			Cardinality: memory.Many, Tier: memory.TierAsserted, Writer: memory.WriterUser, Confidence: 0.6, ValidAt: day0}
		n1 := e.applyOne(memory.LocalAccount, note)
		note.Object = "always run go vet before pushing the branch"
		n2 := e.applyOne(memory.LocalAccount, note)
		if n2.Action != temporal.Restate || n2.Statement.ID != n1.Statement.ID {
			t.Fatalf("near-copy note: %v %d vs %d", n2.Action, n2.Statement.ID, n1.Statement.ID)
		}
		note.Object = "prefer table tests in Go"
		if n3 := e.applyOne(memory.LocalAccount, note); n3.Action != temporal.Insert {
			t.Fatalf("a different note: %v", n3.Action)
		}
	})

	t.Run("withdraw, reopen, pin, use", func(t *testing.T) {
		e := newEnv(t, open)
		a := e.applyOne(memory.LocalAccount, fact("ci", "runner", "github actions", day0)).Statement
		b := e.applyOne(memory.LocalAccount, fact("ci", "runner", "buildkite", day0.Add(time.Hour))).Statement
		e.clock.Add(time.Minute)
		w := must(e.Store.WithdrawStatement(e.ctx, memory.LocalAccount, b.ID, memory.ReasonRetracted))(t)
		if !w.ExpiredAt.Equal(day0.Add(time.Minute)) || !w.InvalidAt.IsZero() || w.Reason != memory.ReasonRetracted {
			t.Fatalf("withdrawn: %+v", w)
		}
		_, err := e.Store.WithdrawStatement(e.ctx, memory.LocalAccount, b.ID, memory.ReasonForgotten)
		wantCode(t, err, memory.CodeConflict)
		_, err = e.Store.WithdrawStatement(e.ctx, memory.LocalAccount, 1<<40, memory.ReasonForgotten)
		wantCode(t, err, memory.CodeNotFound)
		if live := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Live: true}))(t); !slices.Equal(objects(live), []string{"github actions"}) {
			t.Fatalf("live leaves the withdrawn row out: %v", objects(live))
		}
		// Reopen the superseded first value: the current row is closed as reopened.
		see := memory.SightOf(wtA, memory.RungEverywhere)
		r := must(e.Store.ReopenStatement(e.ctx, memory.LocalAccount, b.ID, see))(t)
		if !r.Current() || r.Reason != "" || r.ReplacedBy != 0 {
			t.Fatalf("reopened: %+v", r)
		}
		_, err = e.Store.ReopenStatement(e.ctx, memory.LocalAccount, b.ID, see)
		wantCode(t, err, memory.CodeConflict)
		r = must(e.Store.ReopenStatement(e.ctx, memory.LocalAccount, a.ID, see))(t)
		if !r.Current() {
			t.Fatalf("reopened a: %+v", r)
		}
		if bb := e.get(memory.LocalAccount, b.ID); bb.Current() || bb.Reason != memory.ReasonReopened {
			t.Fatalf("the slot holds one value: b is %+v", bb)
		}
		if cur := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Current: true}))(t); !slices.Equal(objects(cur), []string{"github actions"}) {
			t.Fatalf("current after reopen: %v", objects(cur))
		}
		p := must(e.Store.PinStatement(e.ctx, memory.LocalAccount, a.ID, true))(t)
		if !p.Pinned {
			t.Fatal("not pinned")
		}
		if pinned := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Pinned: true}))(t); len(pinned) != 1 || pinned[0].ID != a.ID {
			t.Fatalf("pinned filter: %v", objects(pinned))
		}
		if p = must(e.Store.PinStatement(e.ctx, memory.LocalAccount, a.ID, false))(t); p.Pinned {
			t.Fatal("still pinned")
		}
		_, err = e.Store.PinStatement(e.ctx, memory.LocalAccount, 1<<40, true)
		wantCode(t, err, memory.CodeNotFound)
		e.clock.Add(time.Minute)
		ok(t, e.Store.MarkUsed(e.ctx, memory.LocalAccount, []int64{b.ID, a.ID, a.ID}))
		ok(t, e.Store.MarkUsed(e.ctx, memory.LocalAccount, nil))
		if u := e.get(memory.LocalAccount, a.ID); u.UsageCount != 2 || !u.LastUsedAt.Equal(day0.Add(2*time.Minute)) {
			t.Fatalf("usage: %d %v", u.UsageCount, u.LastUsedAt)
		}
		_, err = e.Store.Statement(e.ctx, memory.LocalAccount, 1<<40)
		wantCode(t, err, memory.CodeNotFound)
	})

	t.Run("the rules filter", func(t *testing.T) {
		e := newEnv(t, open)
		note := func(text string, class memory.Class, tier memory.Tier) memory.Statement {
			n := fact("", "", text, day0)
			n.Kind, n.Class, n.Tier, n.Cardinality = memory.KindNote, class, tier, memory.Many
			return e.applyOne(memory.LocalAccount, n).Statement
		}
		env := note("We deploy production to Render.", memory.ClassEnvironment, memory.TierAsserted)
		p := note("Use pnpm, never npm.", memory.ClassPreference, memory.TierAsserted)
		c := note("Commit subjects start with the ticket key.", memory.ClassConvention, memory.TierInferred)
		c2 := note("Branches are named feature/KEY.", memory.ClassConvention, memory.TierAsserted)
		e.applyOne(memory.LocalAccount, fact("production", "deploy_target", "Render", day0)) // a fact is never a rule
		must(e.Store.PinStatement(e.ctx, memory.LocalAccount, env.ID, true))(t)
		var ids []int64
		for _, r := range must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Rules: true, Current: true}))(t) {
			ids = append(ids, r.ID)
		}
		// Pinned whatever its class; asserted preferences and conventions;
		// not an inferred convention.
		if want := []int64{env.ID, p.ID, c2.ID}; !slices.Equal(ids, want) {
			t.Fatalf("rules %v, want %v (inferred convention %d)", ids, want, c.ID)
		}
		// The order is the block's: pinned first, then by confidence.
		must(e.Store.PinStatement(e.ctx, memory.LocalAccount, env.ID, false))(t)
		must(e.Store.PinStatement(e.ctx, memory.LocalAccount, c2.ID, true))(t)
		rows := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{Rules: true, Current: true, Limit: 2}))(t)
		if len(rows) != 2 || rows[0].ID != c2.ID || rows[1].ID != p.ID {
			t.Fatalf("rules in order with a limit: %v", objects(rows))
		}
	})

	t.Run("evidence, filters and predicate counts", func(t *testing.T) {
		e := newEnv(t, open)
		sid, turns := e.save(memory.LocalAccount, session("ev", wtA, day0, "we deploy to Render", "and the db is postgres"))
		f := fact("production", "deploy_target", "Render", day0)
		f.Evidence = []memory.Evidence{{SessionID: sid, TurnID: turns["1"], PartSeq: 2, Source: "turn", Quote: "the db"}}
		a := e.applyOne(memory.LocalAccount, f).Statement
		g := fact("production", "database", "postgres", day0)
		b := e.applyOne(memory.LocalAccount, g).Statement
		h := fact("staging", "database", "sqlite", day0)
		c := e.applyOne(memory.LocalAccount, h).Statement
		must(e.Store.WithdrawStatement(e.ctx, memory.LocalAccount, c.ID, memory.ReasonForgotten))(t)
		got := e.get(memory.LocalAccount, a.ID)
		if len(got.Evidence) != 1 {
			t.Fatalf("evidence: %+v", got.Evidence)
		}
		ev := got.Evidence[0]
		if ev.SessionRef != "ev" || ev.TurnSeq != 2 || ev.TurnKey != "1" || ev.PartSeq != 2 || ev.Source != "turn" || ev.Quote != "the db" {
			t.Fatalf("evidence fields: %+v", ev)
		}
		cases := []struct {
			name string
			f    memory.StatementFilter
			want []int64
		}{
			{"all", memory.StatementFilter{}, []int64{a.ID, b.ID, c.ID}},
			{"ids", memory.StatementFilter{IDs: []int64{c.ID, a.ID}}, []int64{a.ID, c.ID}},
			{"predicates", memory.StatementFilter{Predicates: []string{"database"}}, []int64{b.ID, c.ID}},
			{"kinds", memory.StatementFilter{Kinds: []memory.Kind{memory.KindNote}}, nil},
			{"session", memory.StatementFilter{Session: sid}, []int64{a.ID}},
			{"live", memory.StatementFilter{Live: true}, []int64{a.ID, b.ID}},
			{"limit", memory.StatementFilter{Limit: 2}, []int64{a.ID, b.ID}},
		}
		for _, c := range cases {
			var ids []int64
			for _, r := range must(e.Store.Statements(e.ctx, memory.LocalAccount, c.f))(t) {
				ids = append(ids, r.ID)
			}
			if !slices.Equal(ids, c.want) {
				t.Errorf("%s: %v, want %v", c.name, ids, c.want)
			}
		}
		withEv := must(e.Store.Statements(e.ctx, memory.LocalAccount, memory.StatementFilter{IDs: []int64{a.ID}, Evidence: true}))(t)
		if len(withEv) != 1 || len(withEv[0].Evidence) != 1 || withEv[0].Evidence[0].SessionRef != "ev" {
			t.Fatalf("statements with evidence: %+v", withEv)
		}
		counts := must(e.Store.PredicateCounts(e.ctx, memory.LocalAccount))(t)
		if len(counts) != 2 || counts["deploy_target"] != 1 || counts["database"] != 1 {
			t.Fatalf("predicate counts of live facts: %v", counts)
		}
		st := e.get(memory.LocalAccount, b.ID)
		if st.Account != memory.LocalAccount || st.Class != memory.ClassEnvironment || st.Category != "deploy" || st.Tier != memory.TierAsserted ||
			st.Writer != memory.WriterUser || st.Scope.Rung != memory.RungProject || st.Scope.Key != wtA.Project || st.Cardinality != memory.One ||
			st.Confidence != 0.8 || !st.ValidAt.Equal(day0) {
			t.Fatalf("fields round trip: %+v", st)
		}
	})
}
