package temporal

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

var t0 = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

func day(n int) time.Time { return t0.AddDate(0, 0, n) }

func fact(obj string, valid time.Time) memory.Statement {
	return memory.Statement{Kind: memory.KindFact, Subject: "production", Predicate: "deploy_target", Object: obj,
		Cardinality: memory.One, ValidAt: valid}
}

// slotStore applies plans the way a store does, so the rules can be
// exercised as sequences.
type slotStore struct {
	rows []memory.Statement
	next int64
	now  time.Time
}

func (s *slotStore) write(st memory.Statement) Plan {
	s.now = s.now.Add(time.Minute)
	p := Decide(st, s.rows, 0.7)
	switch p.Action {
	case Restate:
		return p
	}
	s.next++
	row := p.Row
	row.ID, row.CreatedAt = s.next, s.now
	if p.Action == InsertLate {
		row.ExpiredAt, row.Reason = s.now, memory.ReasonSuperseded
	}
	for _, c := range p.Close {
		for i := range s.rows {
			if s.rows[i].ID == c.ID {
				s.rows[i].InvalidAt, s.rows[i].ExpiredAt, s.rows[i].Reason, s.rows[i].ReplacedBy = c.InvalidAt, s.now, c.Reason, row.ID
			}
		}
	}
	for _, rv := range p.Revise {
		for i := range s.rows {
			if s.rows[i].ID == rv.ID {
				old := s.rows[i]
				s.rows[i].ExpiredAt, s.rows[i].Reason = s.now, memory.ReasonRevised
				if !rv.NewInvalidAt.After(old.ValidAt) {
					continue // cut to nothing: no copy
				}
				s.next++
				cp := old
				cp.ID, cp.CreatedAt, cp.InvalidAt = s.next, s.now, rv.NewInvalidAt
				cp.ExpiredAt, cp.Reason = s.now, memory.ReasonSuperseded
				s.rows = append(s.rows, cp)
			}
		}
	}
	s.rows = append(s.rows, row)
	return p
}

func TestSupersessionTilesTheWorldClock(t *testing.T) {
	s := &slotStore{now: day(100)}
	s.write(fact("Hetzner Cloud, Falkenstein", day(0)))
	p := s.write(fact("Render, Oregon region", day(30)))
	if p.Action != Insert || len(p.Close) != 1 || !p.Close[0].InvalidAt.Equal(day(30)) {
		t.Fatalf("plan %+v", p)
	}
	cur := current(s.rows)
	if len(cur) != 1 || cur[0].Object != "Render, Oregon region" {
		t.Fatalf("current %v", cur)
	}
	old := s.rows[0]
	if old.ExpiredAt.IsZero() || old.Reason != memory.ReasonSuperseded || old.ReplacedBy != cur[0].ID {
		t.Fatalf("old row %+v", old)
	}
}

func TestRestatementAndNewContent(t *testing.T) {
	cases := []struct {
		old, new string
		restate  bool
	}{
		{"Render, Oregon region", "Render (Oregon region)", true},
		{"3 attempts before lockout", "5 attempts before lockout", false},
		{"Hetzner Cloud", "Render Cloud", false},
		{"use pnpm", "use pnpm", true},
		{"CircleCI", "Buildkite", false},
	}
	for _, c := range cases {
		s := &slotStore{now: day(100)}
		s.write(fact(c.old, day(0)))
		p := s.write(fact(c.new, day(1)))
		if (p.Action == Restate) != c.restate {
			t.Errorf("%q → %q: %s", c.old, c.new, p.Action)
		}
	}
}

func TestLateArrivalIsHistory(t *testing.T) {
	s := &slotStore{now: day(100)}
	s.write(fact("CircleCI", day(0)))
	s.write(fact("Buildkite", day(60)))
	p := s.write(fact("GitHub Actions", day(30)))
	if p.Action != InsertLate || !p.Row.InvalidAt.Equal(day(60)) || len(p.Revise) != 1 || !p.Revise[0].NewInvalidAt.Equal(day(30)) {
		t.Fatalf("plan %+v", p)
	}
	if cur := current(s.rows); len(cur) != 1 || cur[0].Object != "Buildkite" {
		t.Fatalf("a late arrival must not replace the current value: %v", cur)
	}
	for d, want := range map[int]string{10: "CircleCI", 45: "GitHub Actions", 70: "Buildkite"} {
		got := AsOf(s.rows, day(d), World)
		if len(got) != 1 || got[0].Object != want {
			t.Errorf("as of day %d: %v, want %s", d, objects(got), want)
		}
	}
}

func TestManyValuedSlotsKeepEachValueAndDropCopies(t *testing.T) {
	s := &slotStore{now: day(100)}
	mk := func(o string) memory.Statement {
		return memory.Statement{Kind: memory.KindFact, Subject: "team", Predicate: "uses", Object: o, Cardinality: memory.Many, ValidAt: day(0)}
	}
	s.write(mk("pnpm"))
	s.write(mk("Buildkite"))
	if p := s.write(mk("pnpm")); p.Action != Restate {
		t.Fatalf("near-copy not dropped: %s", p.Action)
	}
	if n := len(current(s.rows)); n != 2 {
		t.Fatalf("%d current values", n)
	}
}

// TestPropertyOneValueSlot: for any sequence of writes to a one-value
// slot, at most one row is current, the non-withdrawn rows tile the world
// clock with no gap and no overlap, and as-of at any instant returns
// exactly the row valid then.
func TestPropertyOneValueSlot(t *testing.T) {
	values := []string{"Hetzner", "Render", "Fly.io", "AWS", "GCP", "Azure", "Railway", "Heroku"}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 42))
		s := &slotStore{now: day(1000)}
		n := 2 + rng.IntN(12)
		for range n {
			v := values[rng.IntN(len(values))] + " " + string(rune('A'+rng.IntN(3)))
			s.write(fact(v, day(rng.IntN(200))))
		}
		if c := current(s.rows); len(c) > 1 {
			t.Fatalf("seed %d: %d current rows", seed, len(c))
		}
		live := liveRows(s.rows)
		for i := 0; i+1 < len(live); i++ {
			if !live[i].InvalidAt.Equal(live[i+1].ValidAt) {
				t.Fatalf("seed %d: gap or overlap between %s [%v,%v) and %s [%v,…)", seed,
					live[i].Object, live[i].ValidAt, live[i].InvalidAt, live[i+1].Object, live[i+1].ValidAt)
			}
		}
		if len(live) > 0 && !live[len(live)-1].InvalidAt.IsZero() {
			t.Fatalf("seed %d: the last window is closed", seed)
		}
		for d := -5; d < 210; d += 3 {
			got := AsOf(s.rows, day(d), World)
			var want []memory.Statement
			for _, r := range live {
				if !day(d).Before(r.ValidAt) && (r.InvalidAt.IsZero() || day(d).Before(r.InvalidAt)) {
					want = append(want, r)
				}
			}
			if len(got) > 1 || len(got) != len(want) || (len(got) == 1 && got[0].ID != want[0].ID) {
				t.Fatalf("seed %d day %d: as-of %v, want %v", seed, d, objects(got), objects(want))
			}
		}
	}
}

func liveRows(rows []memory.Statement) []memory.Statement {
	var out []memory.Statement
	for _, r := range rows {
		if !r.Withdrawn() && !(r.InvalidAt.Equal(r.ValidAt) && !r.InvalidAt.IsZero()) {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].ValidAt.Equal(out[j].ValidAt) {
			return out[i].ValidAt.Before(out[j].ValidAt)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

func current(rows []memory.Statement) []memory.Statement {
	var out []memory.Statement
	for _, r := range rows {
		if r.Current() {
			out = append(out, r)
		}
	}
	return out
}

func objects(rows []memory.Statement) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Object)
	}
	return out
}
