package distill

import "testing"

func BenchmarkExtract(b *testing.B) {
	in := flakyRank().input(V1)
	for range b.N {
		Extract(in)
	}
}

func BenchmarkConsolidate400(b *testing.B) {
	in := bigInput(V1)
	b.ResetTimer()
	for range b.N {
		Consolidate(in)
	}
}
