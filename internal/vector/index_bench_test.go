package vector

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSearch is the semantic leg's scan: one query against n rows,
// top 60 (a layer's candidate depth).
func BenchmarkSearch(b *testing.B) {
	for _, dim := range []int{384, 768} {
		for _, n := range []int{10_000, 100_000} {
			b.Run(fmt.Sprintf("dim=%d/rows=%d", dim, n), func(b *testing.B) {
				r := rand.New(rand.NewPCG(7, 7))
				x := New(dim)
				for i := range n {
					_ = x.Put(int64(i+1), randomVec(r, dim))
				}
				q := randomVec(r, dim)
				b.ResetTimer()
				for b.Loop() {
					if len(x.Search(q, 60)) != 60 {
						b.Fatal("short")
					}
				}
			})
		}
	}
}
