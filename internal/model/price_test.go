package model

import (
	"math"
	"testing"
)

func TestPriceLookupAndCost(t *testing.T) {
	p, err := ParsePrices(DefaultPrices)
	if err != nil {
		t.Fatal(err)
	}
	over, err := ParsePrices("llama3.1=0/0, claude-haiku-4-5=2/10")
	if err != nil {
		t.Fatal(err)
	}
	p = p.Merge(over)
	cases := []struct {
		model  string
		u      Usage
		cost   float64
		priced bool
	}{
		{"gpt-4.1-mini", Usage{In: 1_000_000, Out: 1_000_000}, 2.0, true},
		{"gpt-4.1-mini-2025-04-14", Usage{In: 500_000}, 0.2, true}, // the longest entry it starts with
		{"gpt-4.1-2025-04-14", Usage{Out: 1_000_000}, 8, true},
		{"claude-haiku-4-5-20251001", Usage{In: 1_000_000}, 2, true}, // overridden
		{"llama3.1", Usage{In: 9_999}, 0, true},
		{"mystery", Usage{In: 10}, 0, false},
		{"mystery", Usage{In: 10, CostUSD: 0.5}, 0.5, true}, // the provider's own figure wins
	}
	for _, c := range cases {
		got, ok := p.Cost(c.model, c.u)
		if ok != c.priced || math.Abs(got-c.cost) > 1e-9 {
			t.Errorf("%s %+v: %v %v, want %v %v", c.model, c.u, got, ok, c.cost, c.priced)
		}
	}
	for _, bad := range []string{"x", "x=1", "x=a/b", "=1/2", "x=-1/2"} {
		if _, err := ParsePrices(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
