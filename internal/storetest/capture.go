package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

func draft(obj string) memory.Draft {
	return memory.Draft{Kind: memory.KindNote, Object: obj, Class: memory.ClassPreference, Confidence: 0.7}
}

func (e *env) episode(sid, tid int64, p memory.Place, at time.Time, summary string) memory.Episode {
	return memory.Episode{SessionID: sid, TurnID: tid, Place: p, Request: "req " + summary, Outcome: "out", Summary: summary,
		Files: []string{"a.go", "b.go"}, Tools: []string{"Edit", "Bash"}, Status: memory.TurnCompleted, FirstPart: 1, LastPart: 2, At: at, Confidence: 0.5}
}

func episodeSummaries(eps []memory.Episode) []string {
	var out []string
	for _, e := range eps {
		out = append(out, e.Summary)
	}
	return out
}

func testCapture(t *testing.T, open Open) {
	t.Run("candidates", func(t *testing.T) {
		e := newEnv(t, open)
		sid, turns := e.save(memory.LocalAccount, session("c", wtA, day0, "I prefer tabs", "and short names"))
		due := day0.Add(time.Hour)
		ok(t, e.Store.AddCandidates(e.ctx, memory.LocalAccount, sid, turns["0"], []memory.Draft{draft("prefers tabs"), draft("prefers tabs"), draft("likes Go")}, "I prefer tabs", due))
		ok(t, e.Store.AddCandidates(e.ctx, memory.LocalAccount, sid, turns["0"], []memory.Draft{draft("prefers tabs")}, "I prefer tabs", due))
		if d := must(e.Store.AnyDue(e.ctx, memory.LocalAccount, due.Add(-time.Second)))(t); d {
			t.Fatal("due before its window ends")
		}
		// A later turn of the session moves the window of every pending candidate.
		later := due.Add(time.Hour)
		ok(t, e.Store.AddCandidates(e.ctx, memory.LocalAccount, sid, turns["1"], []memory.Draft{draft("short names")}, "and short names", later))
		if d := must(e.Store.AnyDue(e.ctx, memory.LocalAccount, due))(t); d {
			t.Fatal("the window was not reset by a later turn")
		}
		if d := must(e.Store.AnyDue(e.ctx, memory.LocalAccount, later))(t); !d {
			t.Fatal("not due when the window ends")
		}
		cs := must(e.Store.DueCandidates(e.ctx, memory.LocalAccount, later, 10))(t)
		var objs []string
		for _, c := range cs {
			objs = append(objs, c.Draft.Object)
			if c.Place != wtA || c.SessionID != sid || !c.DueAt.Equal(later) || c.Draft.Confidence != 0.7 {
				t.Fatalf("candidate: %+v", c)
			}
		}
		if !slices.Equal(objs, []string{"prefers tabs", "likes Go", "short names"}) {
			t.Fatalf("due candidates, oldest first, each once: %v", objs)
		}
		if cs[0].UserText != "I prefer tabs" || cs[0].TurnID != turns["0"] {
			t.Fatalf("user text and turn: %+v", cs[0])
		}
		if got := must(e.Store.DueCandidates(e.ctx, memory.LocalAccount, later, 1))(t); len(got) != 1 {
			t.Fatalf("limit: %d", len(got))
		}
		ok(t, e.Store.DropCandidate(e.ctx, memory.LocalAccount, cs[1].ID, "too vague"))
		st := memory.Statement{Kind: memory.KindNote, Object: "prefers tabs", Class: memory.ClassPreference, Cardinality: memory.Many,
			Tier: memory.TierAsserted, Writer: memory.WriterCapture, Confidence: 0.7, ValidAt: day0}
		p := proposal(st)
		p.Candidate = cs[0].ID
		must(e.Store.ApplyStatements(e.ctx, memory.LocalAccount, []temporal.Proposal{p}))(t)
		left := must(e.Store.DueCandidates(e.ctx, memory.LocalAccount, later, 10))(t)
		if len(left) != 1 || left[0].Draft.Object != "short names" {
			t.Fatalf("dropped and promoted candidates are no longer due: %+v", left)
		}
	})

	t.Run("queue", func(t *testing.T) {
		e := newEnv(t, open)
		sid, turns := e.save(memory.LocalAccount, session("q", wtA, day0, "a", "b"))
		ok(t, e.Store.Enqueue(e.ctx, memory.LocalAccount, "tools", sid, turns["0"]))
		ok(t, e.Store.Enqueue(e.ctx, memory.LocalAccount, "tools", sid, turns["0"]))
		ok(t, e.Store.Enqueue(e.ctx, memory.LocalAccount, "turn", sid, turns["0"]))
		ok(t, e.Store.Enqueue(e.ctx, memory.LocalAccount, "tools", sid, turns["1"]))
		q := must(e.Store.Queued(e.ctx, memory.LocalAccount, 10))(t)
		if len(q) != 3 || q[0].Kind != "tools" || q[0].TurnID != turns["0"] || q[1].Kind != "turn" || q[2].TurnID != turns["1"] || q[0].SessionID != sid {
			t.Fatalf("queue: %+v", q)
		}
		if q2 := must(e.Store.Queued(e.ctx, memory.LocalAccount, 2))(t); len(q2) != 2 {
			t.Fatalf("limit: %d", len(q2))
		}
		ok(t, e.Store.Unqueue(e.ctx, memory.LocalAccount, q[0].ID))
		if q3 := must(e.Store.Queued(e.ctx, memory.LocalAccount, 10))(t); len(q3) != 2 || q3[0].ID != q[1].ID {
			t.Fatalf("after unqueue: %+v", q3)
		}
	})

	t.Run("episodes", func(t *testing.T) {
		e := newEnv(t, open)
		s1, t1 := e.save(memory.LocalAccount, session("e1", wtA, day0, "a", "b", "c"))
		s2, t2 := e.save(memory.LocalAccount, session("e2", wtB, day0, "d"))
		_, t3 := e.save(memory.LocalAccount, session("e3", wtD, day0, "e"))
		s3 := must(e.Store.SessionID(e.ctx, memory.LocalAccount, "test", "e3"))(t)
		id0 := must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, e.episode(s1, t1["0"], wtA, day0, "first draft")))(t)
		// A second capture of the same turn replaces its episode.
		id0b := must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, e.episode(s1, t1["0"], wtA, day0, "turn zero")))(t)
		if id0b == id0 {
			// Either way the turn has one episode; the old one must be gone.
			t.Log("episode id reused")
		}
		if _, err := e.Store.Episode(e.ctx, memory.LocalAccount, id0); id0 != id0b && memory.ErrorCode(err) != memory.CodeNotFound {
			t.Fatalf("the replaced episode is still there: %v", err)
		}
		id1 := must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, e.episode(s1, t1["1"], wtA, day0.Add(time.Minute), "turn one")))(t)
		id2 := must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, e.episode(s1, t1["2"], wtA, day0.Add(2*time.Minute), "turn two")))(t)
		idB := must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, e.episode(s2, t2["0"], wtB, day0.Add(3*time.Minute), "other worktree")))(t)
		must(e.Store.SaveEpisode(e.ctx, memory.LocalAccount, e.episode(s3, t3["0"], wtD, day0.Add(4*time.Minute), "other project")))(t)
		got := must(e.Store.Episode(e.ctx, memory.LocalAccount, id1))(t)
		if got.Summary != "turn one" || got.SessionRef != "e1" || got.TurnKey != "1" || got.TurnSeq != 2 || got.Place != wtA ||
			!slices.Equal(got.Files, []string{"a.go", "b.go"}) || !slices.Equal(got.Tools, []string{"Edit", "Bash"}) || got.Confidence != 0.5 ||
			got.Status != memory.TurnCompleted || got.FirstPart != 1 || got.LastPart != 2 || !got.At.Equal(day0.Add(time.Minute)) || !got.CreatedAt.Equal(day0) {
			t.Fatalf("episode fields: %+v", got)
		}
		_, err := e.Store.Episode(e.ctx, memory.LocalAccount, 1<<40)
		wantCode(t, err, memory.CodeNotFound)
		if s := episodeSummaries(must(e.Store.Episodes(e.ctx, memory.LocalAccount, false, 0))(t)); !slices.Equal(s, []string{"other project", "other worktree", "turn two", "turn one", "turn zero"}) {
			t.Fatalf("newest first: %v", s)
		}
		if s := episodeSummaries(must(e.Store.SessionEpisodes(e.ctx, memory.LocalAccount, s1))(t)); !slices.Equal(s, []string{"turn zero", "turn one", "turn two"}) {
			t.Fatalf("a session's, in turn order: %v", s)
		}
		if s := episodeSummaries(must(e.Store.LastEpisodes(e.ctx, memory.LocalAccount, wtA.Worktree, 0, 2))(t)); !slices.Equal(s, []string{"turn two", "turn one"}) {
			t.Fatalf("last of a worktree: %v", s)
		}
		if s := must(e.Store.LastEpisodes(e.ctx, memory.LocalAccount, wtA.Worktree, s1, 5))(t); len(s) != 0 {
			t.Fatalf("excluding the only session: %v", episodeSummaries(s))
		}
		// Forget, conflict, restore.
		f := must(e.Store.SetEpisodeState(e.ctx, memory.LocalAccount, id2, memory.ReasonForgotten))(t)
		if f.ExpiredAt.IsZero() || f.Reason != memory.ReasonForgotten {
			t.Fatalf("forgotten: %+v", f)
		}
		_, err = e.Store.SetEpisodeState(e.ctx, memory.LocalAccount, id2, memory.ReasonForgotten)
		wantCode(t, err, memory.CodeConflict)
		_, err = e.Store.SetEpisodeState(e.ctx, memory.LocalAccount, 1<<40, memory.ReasonForgotten)
		wantCode(t, err, memory.CodeNotFound)
		if n := len(must(e.Store.Episodes(e.ctx, memory.LocalAccount, false, 0))(t)); n != 4 {
			t.Fatalf("active after forget: %d", n)
		}
		if n := len(must(e.Store.Episodes(e.ctx, memory.LocalAccount, true, 0))(t)); n != 5 {
			t.Fatalf("all after forget: %d", n)
		}
		if r := must(e.Store.SetEpisodeState(e.ctx, memory.LocalAccount, id2, ""))(t); !r.ExpiredAt.IsZero() || r.Reason != "" {
			t.Fatalf("restored: %+v", r)
		}
		if p := must(e.Store.PinEpisode(e.ctx, memory.LocalAccount, id0b, true))(t); !p.Pinned {
			t.Fatal("not pinned")
		}
		_, err = e.Store.PinEpisode(e.ctx, memory.LocalAccount, 1<<40, true)
		wantCode(t, err, memory.CodeNotFound)
		// Cap at 1 per project: the project of wtA/wtB keeps its newest
		// unpinned episode and the pinned one; the other project keeps its one.
		e.clock.Add(time.Minute)
		if n := must(e.Store.CapEpisodes(e.ctx, memory.LocalAccount, 1))(t); n != 2 {
			t.Fatalf("capped %d, want 2", n)
		}
		active := episodeSummaries(must(e.Store.Episodes(e.ctx, memory.LocalAccount, false, 0))(t))
		if !slices.Equal(active, []string{"other project", "other worktree", "turn zero"}) {
			t.Fatalf("after cap: %v", active)
		}
		c := must(e.Store.Episode(e.ctx, memory.LocalAccount, id1))(t)
		if c.Reason != memory.ReasonCapped || !c.ExpiredAt.Equal(day0.Add(time.Minute)) {
			t.Fatalf("capped episode: %+v", c)
		}
		ok(t, e.Store.MarkEpisodesUsed(e.ctx, memory.LocalAccount, []int64{idB, idB}))
		if u := must(e.Store.Episode(e.ctx, memory.LocalAccount, idB))(t); u.UsageCount != 2 {
			t.Fatalf("usage: %d", u.UsageCount)
		}
	})

	t.Run("profile", func(t *testing.T) {
		e := newEnv(t, open)
		if _, found := must2(e.Store.Profile(e.ctx, memory.LocalAccount))(t); found {
			t.Fatal("a new store has a profile")
		}
		ok(t, e.Store.SaveProfile(e.ctx, memory.LocalAccount, "prefers Go", []int64{5, 2}))
		e.clock.Add(time.Minute)
		ok(t, e.Store.SaveProfile(e.ctx, memory.LocalAccount, "prefers Go and tabs", []int64{7, 3, 9}))
		p, found := must2(e.Store.Profile(e.ctx, memory.LocalAccount))(t)
		if !found || p.Body != "prefers Go and tabs" || !slices.Equal(p.Sources, []int64{7, 3, 9}) || !p.BuiltAt.Equal(day0.Add(time.Minute)) || p.ID == 0 {
			t.Fatalf("profile: %+v", p)
		}
		ok(t, e.Store.SaveProfile(e.ctx, memory.LocalAccount, "", nil))
		if _, found := must2(e.Store.Profile(e.ctx, memory.LocalAccount))(t); found {
			t.Fatal("an empty body removes the profile")
		}
		if hits := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L3, memory.SearchQuery{Terms: terms("tabs")}))(t); len(hits) != 0 {
			t.Fatalf("a removed profile is found: %v", texts(hits))
		}
	})

	t.Run("save capture in one transaction", func(t *testing.T) {
		e := newEnv(t, open)
		sid, turns := e.save(memory.LocalAccount, session("sc", wtA, day0, "we use pnpm now"))
		eps := []memory.Episode{e.episode(sid, turns["0"], wtA, day0, "switched to pnpm")}
		cands := []memory.CandidateSet{{SessionID: sid, TurnID: turns["0"], Drafts: []memory.Draft{draft("uses pnpm")}, UserText: "we use pnpm now", DueAt: day0}}
		f := fact("repo", "package_manager", "pnpm", day0)
		out := must(e.Store.SaveCapture(e.ctx, memory.LocalAccount, eps, cands, []temporal.Proposal{proposal(f)}))(t)
		if len(out) != 1 || out[0].Action != temporal.Insert || out[0].Statement.Object != "pnpm" {
			t.Fatalf("applied: %+v", out)
		}
		if s := episodeSummaries(must(e.Store.SessionEpisodes(e.ctx, memory.LocalAccount, sid))(t)); !slices.Equal(s, []string{"switched to pnpm"}) {
			t.Fatalf("episodes: %v", s)
		}
		if c := must(e.Store.DueCandidates(e.ctx, memory.LocalAccount, day0, 10))(t); len(c) != 1 {
			t.Fatalf("candidates: %+v", c)
		}
		if hits := must(e.Store.SearchLayer(e.ctx, memory.LocalAccount, memory.L2, memory.SearchQuery{Terms: terms("pnpm"), Place: wtA}))(t); len(hits) != 1 {
			t.Fatalf("the episode is indexed: %v", texts(hits))
		}
		// Nothing at all: no error.
		if out := must(e.Store.SaveCapture(e.ctx, memory.LocalAccount, nil, nil, nil))(t); len(out) != 0 {
			t.Fatalf("empty capture: %+v", out)
		}
	})
}

// must2 unpacks Profile.
func must2(v memory.Profile, found bool, err error) func(t *testing.T) (memory.Profile, bool) {
	return func(t *testing.T) (memory.Profile, bool) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v, found
	}
}
