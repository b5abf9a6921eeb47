package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

func testPhases(t *testing.T, open Open) {
	t.Run("eligible sessions and claims", func(t *testing.T) {
		e := newEnv(t, open)
		now := day0.AddDate(0, 0, 2)
		idle := now.Add(-6 * time.Hour)
		oldest := now.AddDate(0, 0, -10)
		old, _ := e.save(memory.LocalAccount, session("old", wtA, day0.AddDate(0, 0, -20), "x"))
		a, _ := e.save(memory.LocalAccount, session("a", wtA, day0, "x"))
		b, _ := e.save(memory.LocalAccount, session("b", wtA, day0.Add(time.Hour), "x"))
		fresh, _ := e.save(memory.LocalAccount, session("fresh", wtA, now.Add(-time.Hour), "x"))
		open := memory.Session{Provider: "test", ExternalID: "running", Place: wtA}
		e.save(memory.LocalAccount, open) // never ended
		_, _ = old, fresh
		elig := func() []int64 {
			return must(e.Store.EligibleSessions(e.ctx, memory.LocalAccount, "v1", idle, oldest, now, 10))(t)
		}
		if got := elig(); !slices.Equal(got, []int64{a, b}) {
			t.Fatalf("eligible: %v, want [%d %d] (ended in the window, oldest first)", got, a, b)
		}
		if got := must(e.Store.EligibleSessions(e.ctx, memory.LocalAccount, "v1", idle, oldest, now, 1))(t); !slices.Equal(got, []int64{a}) {
			t.Fatalf("limit 1: %v", got)
		}
		e.clock.Add(48 * time.Hour) // the store's now is now
		lease := now.Add(time.Minute)
		if !must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, a, "v1", "p1", lease))(t) {
			t.Fatal("first claim refused")
		}
		if must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, a, "v1", "p2", lease))(t) {
			t.Fatal("a claimed job was claimed again")
		}
		if got := elig(); !slices.Equal(got, []int64{b}) {
			t.Fatalf("a claimed job is not eligible: %v", got)
		}
		// Another version is another job.
		if !must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, a, "v2", "p2", lease))(t) {
			t.Fatal("v2 claim refused")
		}
		// Failure with backoff: not eligible, not claimable before next_at.
		next := now.Add(time.Hour)
		ok(t, e.Store.FinishJob(e.ctx, memory.LocalAccount, a, "v1", "pending", "model timed out", next))
		if n := must(e.Store.JobAttempts(e.ctx, memory.LocalAccount, a, "v1"))(t); n != 1 {
			t.Fatalf("attempts %d", n)
		}
		if got := elig(); slices.Contains(got, a) {
			t.Fatalf("retried before its backoff: %v", got)
		}
		if must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, a, "v1", "p2", lease))(t) {
			t.Fatal("claimed before its backoff")
		}
		e.clock.Add(time.Hour)
		if got := must(e.Store.EligibleSessions(e.ctx, memory.LocalAccount, "v1", idle, oldest, next, 10))(t); !slices.Contains(got, a) {
			t.Fatalf("due again after its backoff: %v", got)
		}
		if !must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, a, "v1", "p2", next.Add(time.Minute)))(t) {
			t.Fatal("claim after backoff refused")
		}
		// Done with an extraction of the session as it is: finished for good.
		must(e.Store.SaveExtraction(e.ctx, memory.LocalAccount, memory.Extraction{SessionID: a, Version: "v1", Slug: "a-slug",
			RawMemory: "raw", Summary: "sum", SessionAt: day0.Add(time.Minute)}))(t)
		ok(t, e.Store.FinishJob(e.ctx, memory.LocalAccount, a, "v1", "done", "", time.Time{}))
		if n := must(e.Store.JobAttempts(e.ctx, memory.LocalAccount, a, "v1"))(t); n != 1 {
			t.Fatalf("done does not count as an attempt: %d", n)
		}
		later := next.Add(time.Hour)
		if got := must(e.Store.EligibleSessions(e.ctx, memory.LocalAccount, "v1", idle, oldest, later, 10))(t); slices.Contains(got, a) {
			t.Fatalf("a finished job is eligible: %v", got)
		}
		if must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, a, "v1", "p3", later))(t) {
			t.Fatal("a finished job was claimed")
		}
		// The session grows: eligible and claimable again.
		grown := session("a", wtA, day0, "x", "y")
		e.save(memory.LocalAccount, grown)
		if got := must(e.Store.EligibleSessions(e.ctx, memory.LocalAccount, "v1", idle, oldest, later, 10))(t); !slices.Contains(got, a) {
			t.Fatalf("a grown session is not eligible: %v", got)
		}
		if !must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, a, "v1", "p3", later.Add(time.Minute)))(t) {
			t.Fatal("a grown session's job was not claimed")
		}
		// Out of attempts: failed for good.
		if !must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, b, "v1", "p4", later))(t) {
			t.Fatal("claim b")
		}
		ok(t, e.Store.FinishJob(e.ctx, memory.LocalAccount, b, "v1", "failed", "boom", time.Time{}))
		if must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, b, "v1", "p4", later.Add(time.Minute)))(t) {
			t.Fatal("a failed job was claimed")
		}
		if n := must(e.Store.JobAttempts(e.ctx, memory.LocalAccount, 1<<40, "v1"))(t); n != 0 {
			t.Fatalf("no job, no attempts: %d", n)
		}
	})

	t.Run("two handles race for one job and one lease", func(t *testing.T) {
		e := newEnv(t, open)
		const sessions = 6
		var ids []int64
		for i := range sessions {
			id, _ := e.save(memory.LocalAccount, session(fmt.Sprint("r", i), wtA, day0, "x"))
			ids = append(ids, id)
		}
		until := day0.Add(time.Hour)
		handles := []engine.Store{e.Store, e.Twin, e.Store, e.Twin}
		for _, id := range ids {
			wins := make([]bool, len(handles))
			var wg sync.WaitGroup
			for i, h := range handles {
				wg.Add(1)
				go func() {
					defer wg.Done()
					won, err := h.ClaimJob(e.ctx, memory.LocalAccount, id, "v1", fmt.Sprint("owner", i), until)
					if err != nil {
						t.Error(err)
					}
					wins[i] = won
				}()
			}
			wg.Wait()
			if n := count(wins); n != 1 {
				t.Fatalf("session %d claimed by %d handles, want exactly 1", id, n)
			}
		}
		for round := range 4 {
			name := fmt.Sprint("consolidate-", round)
			wins := make([]bool, len(handles))
			var wg sync.WaitGroup
			for i, h := range handles {
				wg.Add(1)
				go func() {
					defer wg.Done()
					won, err := h.AcquireLease(e.ctx, memory.LocalAccount, name, fmt.Sprint("owner", i), until)
					if err != nil {
						t.Error(err)
					}
					wins[i] = won
				}()
			}
			wg.Wait()
			if n := count(wins); n != 1 {
				t.Fatalf("lease %s held by %d handles, want exactly 1", name, n)
			}
		}
	})

	t.Run("leases", func(t *testing.T) {
		e := newEnv(t, open)
		until := day0.Add(time.Minute)
		if !must(e.Store.AcquireLease(e.ctx, memory.LocalAccount, "phase2", "p1", until))(t) {
			t.Fatal("acquire")
		}
		if must(e.Twin.AcquireLease(e.ctx, memory.LocalAccount, "phase2", "p2", until))(t) {
			t.Fatal("a held lease was taken")
		}
		if !must(e.Store.AcquireLease(e.ctx, memory.LocalAccount, "phase2", "p1", until.Add(time.Minute)))(t) {
			t.Fatal("its owner may take it again")
		}
		if !must(e.Store.RenewLease(e.ctx, memory.LocalAccount, "phase2", "p1", until.Add(2*time.Minute)))(t) {
			t.Fatal("renew")
		}
		if must(e.Store.RenewLease(e.ctx, memory.LocalAccount, "phase2", "p2", until.Add(2*time.Minute)))(t) {
			t.Fatal("renewed by another owner")
		}
		if !must(e.Store.AcquireLease(e.ctx, memory.LocalAccount, "other", "p2", until))(t) {
			t.Fatal("another name is another lease")
		}
		e.clock.Add(10 * time.Minute) // p1's lease has run out
		if !must(e.Twin.AcquireLease(e.ctx, memory.LocalAccount, "phase2", "p2", day0.Add(20*time.Minute)))(t) {
			t.Fatal("an expired lease was not taken over")
		}
		if must(e.Store.RenewLease(e.ctx, memory.LocalAccount, "phase2", "p1", day0.Add(30*time.Minute)))(t) {
			t.Fatal("a lost lease was renewed")
		}
		ok(t, e.Store.ReleaseLease(e.ctx, memory.LocalAccount, "phase2", "p1")) // not the holder: nothing
		if must(e.Store.AcquireLease(e.ctx, memory.LocalAccount, "phase2", "p1", day0.Add(30*time.Minute)))(t) {
			t.Fatal("a release by a non-holder freed the lease")
		}
		ok(t, e.Twin.ReleaseLease(e.ctx, memory.LocalAccount, "phase2", "p2"))
		if !must(e.Store.AcquireLease(e.ctx, memory.LocalAccount, "phase2", "p1", day0.Add(30*time.Minute)))(t) {
			t.Fatal("a released lease was not free")
		}
	})

	t.Run("extractions", func(t *testing.T) {
		e := newEnv(t, open)
		a, _ := e.save(memory.LocalAccount, session("xa", wtA, day0, "x"))
		b, _ := e.save(memory.LocalAccount, session("xb", wtB, day0, "x"))
		c, _ := e.save(memory.LocalAccount, session("xc", wtB, day0, "x"))
		x := memory.Extraction{SessionID: a, Version: "v1", Slug: "slug-a", RawMemory: "raw a", Summary: "sum a", Task: "t", TaskGroup: "g",
			Outcome: "success", Keywords: []string{"k1", "k2"}, Statements: []int64{4, 2}, Model: "m", SessionAt: day0}
		id := must(e.Store.SaveExtraction(e.ctx, memory.LocalAccount, x))(t)
		x.RawMemory = "raw a, again"
		if id2 := must(e.Store.SaveExtraction(e.ctx, memory.LocalAccount, x))(t); id2 != id {
			t.Fatalf("a session's extraction is replaced in place: %d then %d", id, id2)
		}
		e.clock.Add(time.Hour)
		must(e.Store.SaveExtraction(e.ctx, memory.LocalAccount, memory.Extraction{SessionID: b, Version: "v1", Slug: "slug-b", RawMemory: "raw b"}))(t)
		must(e.Store.SaveExtraction(e.ctx, memory.LocalAccount, memory.Extraction{SessionID: c, Version: "v1", Empty: true}))(t)
		must(e.Store.SaveExtraction(e.ctx, memory.LocalAccount, memory.Extraction{SessionID: a, Version: "v2", Slug: "slug-a2", RawMemory: "v2"}))(t)
		xs := must(e.Store.Extractions(e.ctx, memory.LocalAccount, "v1"))(t)
		if len(xs) != 2 {
			t.Fatalf("v1 extractions without the empty one: %+v", xs)
		}
		g := xs[0]
		if g.ID != id || g.RawMemory != "raw a, again" || g.SessionRef != "xa" || g.Provider != "test" || g.Place != wtA || g.Slug != "slug-a" ||
			g.Summary != "sum a" || g.Task != "t" || g.TaskGroup != "g" || g.Outcome != "success" || !slices.Equal(g.Keywords, []string{"k1", "k2"}) ||
			!slices.Equal(g.Statements, []int64{4, 2}) || g.Model != "m" || !g.SessionAt.Equal(day0) || !g.CreatedAt.Equal(day0) || g.Version != "v1" {
			t.Fatalf("extraction fields: %+v", g)
		}
		e.clock.Add(time.Hour)
		ok(t, e.Store.MarkExtractionsUsed(e.ctx, memory.LocalAccount, []string{"slug-b", "slug-b"}))
		xs = must(e.Store.Extractions(e.ctx, memory.LocalAccount, "v1"))(t)
		if xs[1].UsageCount != 2 || !xs[1].LastUsedAt.Equal(day0.Add(2*time.Hour)) {
			t.Fatalf("usage: %+v", xs[1])
		}
		// Prune what was neither made nor used since day0+90m: only slug-a.
		if n := must(e.Store.PruneExtractions(e.ctx, memory.LocalAccount, "v1", day0.Add(90*time.Minute)))(t); n != 2 {
			// slug-a (made at day0) and the empty one (made at day0+1h).
			t.Fatalf("pruned %d, want 2", n)
		}
		xs = must(e.Store.Extractions(e.ctx, memory.LocalAccount, "v1"))(t)
		if len(xs) != 1 || xs[0].Slug != "slug-b" {
			t.Fatalf("after prune: %+v", xs)
		}
		// Saving again brings a pruned extraction back.
		must(e.Store.SaveExtraction(e.ctx, memory.LocalAccount, x))(t)
		if xs = must(e.Store.Extractions(e.ctx, memory.LocalAccount, "v1"))(t); len(xs) != 2 {
			t.Fatalf("re-saved: %+v", xs)
		}
		if !must(e.Store.ClaimJob(e.ctx, memory.LocalAccount, a, "v1", "p", e.clock.Now().Add(time.Hour)))(t) {
			t.Fatal("claim")
		}
		ok(t, e.Store.FinishJob(e.ctx, memory.LocalAccount, a, "v1", "pending", "x", e.clock.Now()))
		ok(t, e.Store.ResetPhases(e.ctx, memory.LocalAccount))
		if xs = must(e.Store.Extractions(e.ctx, memory.LocalAccount, "v1"))(t); len(xs) != 0 {
			t.Fatalf("after reset: %+v", xs)
		}
		if n := must(e.Store.JobAttempts(e.ctx, memory.LocalAccount, a, "v1"))(t); n != 0 {
			t.Fatalf("jobs after reset: %d attempts", n)
		}
	})
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
