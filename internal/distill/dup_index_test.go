package distill

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// linearDup is the rule dupIndex implements, applied the slow way: every
// earlier line compared in order.
func linearDup(es []*entry, e *entry) *entry {
	for _, d := range es {
		if d.normed == e.normed {
			return d
		}
		if len(d.toks) >= dupMinTokens && len(e.toks) >= dupMinTokens && jaccard(d.toks, e.toks) >= dupJaccard {
			return d
		}
	}
	return nil
}

// The index finds, line for line, the duplicate that comparing each new
// line with every earlier one finds: on random lines drawn from a small
// vocabulary, each often a copy of an earlier line with a word or two
// changed, added or dropped, or the same words in another case.
func TestDupIndexFindsWhatComparingAllFinds(t *testing.T) {
	words := strings.Fields("deploy target render oregon fly ledger refund retry backoff invoice webhook timeout " +
		"migration schema index cache flaky test parser rounding currency payout report the a to of")
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 99))
		var texts []string
		var lines []*entry
		// A df from another text than the lines': any order gives the
		// same answers.
		ix := newDupIndex(map[string]int{"deploy": 9, "the": 50, "a": 40, "refund": 1})
		found, near := 0, 0
		for range 600 {
			var s string
			if len(texts) > 0 && r.IntN(3) > 0 {
				f := strings.Fields(texts[r.IntN(len(texts))])
				switch r.IntN(5) {
				case 0:
					f[r.IntN(len(f))] = words[r.IntN(len(words))]
				case 1:
					f = append(f, words[r.IntN(len(words))])
				case 2:
					if len(f) > 1 {
						f = f[1:]
					}
				case 3:
					f[0] = strings.ToUpper(f[0])
				}
				s = strings.Join(f, " ")
			} else {
				n := 1 + r.IntN(24)
				f := make([]string, n)
				for i := range f {
					f[i] = words[r.IntN(len(words))]
				}
				s = strings.Join(f, " ")
			}
			texts = append(texts, s)
			e := &entry{text: s, normed: norm(s), toks: tokenSet(s)}
			want, got := linearDup(lines, e), ix.find(e)
			if want != got {
				t.Fatalf("seed %d, line %q: the index found %v, comparing all found %v", seed, s, got, want)
			}
			if want != nil {
				found++
				if want.normed != e.normed {
					near++
				}
				continue
			}
			lines = append(lines, e)
			ix.add(e)
		}
		if found < 100 || near < 20 {
			t.Fatalf("seed %d: too few duplicates to compare (%d, %d near)", seed, found, near)
		}
	}
}

func TestDupPrefix(t *testing.T) {
	for n := dupMinTokens; n <= 200; n++ {
		p := dupPrefix(n)
		// The smallest overlap a duplicate can have, as jaccard computes
		// it: a subset of k of the n tokens. Two sets sharing k tokens
		// share one among the first n-k+1 of each.
		need := 0
		for k := 0; k <= n; k++ {
			if float64(k)/float64(n) >= dupJaccard {
				need = k
				break
			}
		}
		if p < n-need+1 || p > n {
			t.Errorf("dupPrefix(%d) = %d, want at least %d", n, p, n-need+1)
		}
	}
}

// BenchmarkDupLines merges a block of 20,000 generated lines, about one in
// five a near copy of an earlier one, through the index and by comparing
// each line with all before it:
//
//	go test -run XXX -bench BenchmarkDupLines -benchtime 1x ./internal/distill
func BenchmarkDupLines(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	var lines []*entry
	for i := range 20_000 {
		s := fmt.Sprintf("the %s service keeps its %s in %s for %d days", word(r), word(r), word(r), i)
		if i > 0 && r.IntN(5) == 0 {
			s = lines[r.IntN(len(lines))].text + " again"
		}
		lines = append(lines, &entry{text: s, normed: norm(s), toks: tokenSet(s)})
	}
	df := map[string]int{}
	for _, e := range lines {
		for _, t := range e.toks {
			df[t]++
		}
	}
	for _, how := range []string{"index", "compare-all"} {
		b.Run(how, func(b *testing.B) {
			for b.Loop() {
				ix := newDupIndex(df)
				var kept []*entry
				for _, e := range lines {
					var d *entry
					if how == "index" {
						d = ix.find(e)
					} else {
						d = linearDup(kept, e)
					}
					if d == nil {
						ix.add(e)
						kept = append(kept, e)
					}
				}
			}
		})
	}
}

func word(r *rand.Rand) string {
	return fmt.Sprintf("w%d", r.IntN(3000))
}
