package vector

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

func randomVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// naive is the reference: cosine computed in float64, sorted in full.
func naive(vs map[int64][]float32, q []float32, k int) []int64 {
	type sc struct {
		id int64
		s  float64
	}
	var all []sc
	for id, v := range vs {
		var d, na, nb float64
		for i := range v {
			d += float64(v[i]) * float64(q[i])
			na += float64(v[i]) * float64(v[i])
			nb += float64(q[i]) * float64(q[i])
		}
		all = append(all, sc{id, d / math.Sqrt(na*nb)})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].s != all[j].s {
			return all[i].s > all[j].s
		}
		return all[i].id > all[j].id
	})
	var out []int64
	for i := 0; i < k && i < len(all); i++ {
		out = append(out, all[i].id)
	}
	return out
}

func TestSearchMatchesTheReference(t *testing.T) {
	for _, c := range []struct {
		name      string
		rows, dim int
		k         int
	}{
		{"small", 50, 8, 5},
		{"odd dimension", 300, 13, 10},
		{"k above the rows", 7, 4, 20},
		{"split across processors", 3 * parallelRows, 16, 25},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(c.rows)))
			x := New(c.dim)
			vs := map[int64][]float32{}
			for i := range c.rows {
				v := randomVec(r, c.dim)
				id := int64(i*3 + 1)
				vs[id] = v
				if err := x.Put(id, v); err != nil {
					t.Fatal(err)
				}
			}
			for range 5 {
				q := randomVec(r, c.dim)
				got := x.Search(q, c.k)
				want := naive(vs, q, c.k)
				if len(got) != len(want) {
					t.Fatalf("%d hits, want %d", len(got), len(want))
				}
				for i := range got {
					if got[i].ID != want[i] {
						t.Fatalf("hit %d is row %d, want %d", i, got[i].ID, want[i])
					}
					if i > 0 && got[i].Score > got[i-1].Score {
						t.Fatalf("hits out of order at %d", i)
					}
				}
			}
		})
	}
}

func TestPutReplacesAndRemoveForgets(t *testing.T) {
	x := New(2)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(x.Put(1, []float32{1, 0}))
	must(x.Put(2, []float32{0, 3}))
	must(x.Put(3, []float32{-1, 0}))
	if h := x.Search([]float32{5, 0}, 1); len(h) != 1 || h[0].ID != 1 || math.Abs(float64(h[0].Score)-1) > 1e-6 {
		t.Fatalf("nearest to +x: %v", h)
	}
	must(x.Put(1, []float32{0, -1})) // row 1 changed its text
	if h := x.Search([]float32{5, 0}, 1); h[0].ID == 1 {
		t.Fatalf("a replaced vector still answers: %v", h)
	}
	x.Remove(2)
	x.Remove(2)
	if x.Len() != 2 || x.Has(2) || !x.Has(3) {
		t.Fatalf("after remove: len %d", x.Len())
	}
	if h := x.Search([]float32{0, 1}, 3); len(h) != 2 || h[0].ID != 3 && h[1].ID != 3 {
		t.Fatalf("the moved vector must stay findable: %v", h)
	}
	if h := x.Search([]float32{0, -1}, 1); h[0].ID != 1 {
		t.Fatalf("nearest to -y: %v", h)
	}
}

func TestPutRefusesVectorsWithoutDirection(t *testing.T) {
	x := New(3)
	for name, v := range map[string][]float32{
		"other dimension": {1, 2},
		"zero":            {0, 0, 0},
		"nan":             {1, float32(math.NaN()), 0},
		"infinite":        {float32(math.Inf(1)), 0, 0},
	} {
		if err := x.Put(1, v); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if x.Len() != 0 {
		t.Fatal("a refused vector was kept")
	}
	_ = x.Put(1, []float32{1, 1, 1})
	if x.Search([]float32{1, 1}, 3) != nil || x.Search([]float32{0, 0, 0}, 3) != nil || x.Search([]float32{1, 1, 1}, 0) != nil {
		t.Fatal("a query of another dimension, without direction or with k 0 finds nothing")
	}
}

func TestEqualScoresPutTheNewerRowFirst(t *testing.T) {
	x := New(2)
	for _, id := range []int64{4, 9, 2} {
		_ = x.Put(id, []float32{1, 1})
	}
	h := x.Search([]float32{1, 1}, 2)
	if len(h) != 2 || h[0].ID != 9 || h[1].ID != 4 {
		t.Fatalf("ties: %v", h)
	}
}
