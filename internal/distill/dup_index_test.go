package distill

import (
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
		ix := newDupIndex()
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
