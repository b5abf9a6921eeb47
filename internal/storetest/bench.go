package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// BenchOpen makes a fresh store for a benchmark.
type BenchOpen func(b *testing.B) Fixture

// Bench measures the same searches and writes on every store: a corpus of
// sessions sessions of 10 two-part turns (the golden corpus's words), then
// a search of the raw layer at a worktree and everywhere, a search of
// statements, and the write of one session of 10 turns.
func Bench(b *testing.B, open BenchOpen, sessions int) {
	f := open(b)
	ctx := context.Background()
	r := rng(7)
	places := []memory.Place{wtA, wtB, wtD}
	for si := range sessions {
		if _, err := f.Store.SaveSession(ctx, memory.LocalAccount, benchSession(&r, fmt.Sprintf("b%05d", si), places[si%3], si)); err != nil {
			b.Fatal(err)
		}
	}
	var sts []memory.Statement
	for i := range 200 {
		sts = append(sts, memory.Statement{Kind: memory.KindNote, Object: fmt.Sprintf("n%03d %s", i, r.sentence(8)), Class: memory.ClassDecision,
			Cardinality: memory.Many, Tier: memory.TierAsserted, Writer: memory.WriterUser, Confidence: 0.8, ValidAt: day0})
	}
	if _, err := f.Store.ApplyStatements(ctx, memory.LocalAccount, proposals(sts)); err != nil {
		b.Fatal(err)
	}
	queries := goldenQueries
	search := func(layer memory.Layer, rung memory.Rung) func(b *testing.B) {
		return func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				q := memory.SearchQuery{Terms: terms(queries[i%len(queries)]), Place: wtA, Rung: rung, Limit: 20}
				if _, err := f.Store.SearchLayer(ctx, memory.LocalAccount, layer, q); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("search/L0-worktree", search(memory.L0, memory.RungWorktree))
	b.Run("search/L0-everywhere", search(memory.L0, memory.RungEverywhere))
	b.Run("search/L1", search(memory.L1, memory.RungEverywhere))
	b.Run("write/session-10-turns", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := f.Store.SaveSession(ctx, memory.LocalAccount, benchSession(&r, fmt.Sprintf("w%07d", i), wtA, i)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func proposals(sts []memory.Statement) (out []temporal.Proposal) {
	for _, st := range sts {
		out = append(out, proposal(st))
	}
	return out
}

func benchSession(r *rng, ext string, p memory.Place, n int) memory.Session {
	start := day0.Add(time.Duration(n) * time.Hour)
	s := memory.Session{Provider: "test", ExternalID: ext, Place: p, StartedAt: start, EndedAt: start.Add(time.Hour)}
	for ti := range 10 {
		at := start.Add(time.Duration(ti) * time.Minute)
		user, asst := r.sentence(4+r.next(10)), r.sentence(6+r.next(30))
		s.Turns = append(s.Turns, memory.Turn{Key: fmt.Sprint(ti), Seq: ti + 1, Request: user, Status: memory.TurnCompleted, StartedAt: at,
			Digest: ext + user, Parts: []memory.Part{
				{Seq: 2*ti + 1, Role: memory.RoleUser, Kind: memory.KindText, Text: user, Time: at},
				{Seq: 2*ti + 2, Role: memory.RoleAssistant, Kind: memory.KindText, Text: asst, Time: at},
			}})
	}
	return s
}
