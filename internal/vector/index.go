package vector

import (
	"container/heap"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
)

// Hit is one row near the query, with its cosine similarity.
type Hit struct {
	ID    int64
	Score float32
}

// Index is a set of unit vectors of one dimension, keyed by row id. It is
// not safe for concurrent use while written; searches may run together.
type Index struct {
	dim  int
	ids  []int64
	vecs []float32 // len(ids)*dim, each vector normalized
	slot map[int64]int
}

// New returns an empty index of vectors of dim dimensions.
func New(dim int) *Index {
	return &Index{dim: dim, slot: map[int64]int{}}
}

// Dim is the dimension every vector has.
func (x *Index) Dim() int { return x.dim }

// Len is the number of vectors held.
func (x *Index) Len() int { return len(x.ids) }

// Has reports whether row id has a vector.
func (x *Index) Has(id int64) bool {
	_, ok := x.slot[id]
	return ok
}

// Put stores row id's vector, replacing any it had. The vector is copied
// and normalized, so a search is one dot product a row. A vector of
// another dimension, with a non-finite value, or of length zero has no
// direction and is refused.
func (x *Index) Put(id int64, v []float32) error {
	if len(v) != x.dim {
		return fmt.Errorf("put vector %d: %d dimensions, the index holds %d", id, len(v), x.dim)
	}
	n, ok := norm(v)
	if !ok {
		return fmt.Errorf("put vector %d: no direction (zero or not finite)", id)
	}
	i, had := x.slot[id]
	if !had {
		i = len(x.ids)
		x.ids = append(x.ids, id)
		x.vecs = append(x.vecs, make([]float32, x.dim)...)
		x.slot[id] = i
	}
	dst := x.vecs[i*x.dim : (i+1)*x.dim]
	for j, f := range v {
		dst[j] = f / n
	}
	return nil
}

// Remove forgets row id; the last vector moves into its place.
func (x *Index) Remove(id int64) {
	i, ok := x.slot[id]
	if !ok {
		return
	}
	last := len(x.ids) - 1
	if i != last {
		x.ids[i] = x.ids[last]
		copy(x.vecs[i*x.dim:(i+1)*x.dim], x.vecs[last*x.dim:])
		x.slot[x.ids[i]] = i
	}
	x.ids = x.ids[:last]
	x.vecs = x.vecs[:last*x.dim]
	delete(x.slot, id)
}

// norm is a vector's Euclidean length, and whether it has a direction.
func norm(v []float32) (float32, bool) {
	var s float64
	for _, f := range v {
		if !finite(f) {
			return 0, false
		}
		s += float64(f) * float64(f)
	}
	if s == 0 || math.IsInf(s, 0) {
		return 0, false
	}
	return float32(math.Sqrt(s)), true
}

// parallelRows is the size from which a search is split across the
// processors: below it, starting goroutines costs more than it saves.
const parallelRows = 8192

// Search returns the k rows most similar to q, most similar first; equal
// scores put the higher id (the newer row) first. A query of another
// dimension or without direction finds nothing.
func (x *Index) Search(q []float32, k int) []Hit {
	if k <= 0 || len(q) != x.dim || len(x.ids) == 0 {
		return nil
	}
	n, ok := norm(q)
	if !ok {
		return nil
	}
	unit := make([]float32, len(q))
	for i, f := range q {
		unit[i] = f / n
	}
	rows := len(x.ids)
	parts := 1
	if rows >= parallelRows {
		parts = min(runtime.GOMAXPROCS(0), rows/(parallelRows/2))
	}
	tops := make([]topK, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := rows*p/parts, rows*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			tops[p] = x.scan(unit, k, lo, hi)
		}()
	}
	wg.Wait()
	all := tops[0]
	for _, t := range tops[1:] {
		all = append(all, t...)
	}
	sort.Slice(all, func(i, j int) bool { return better(all[i], all[j]) })
	if len(all) > k {
		all = all[:k]
	}
	return all
}

// scan keeps the k best rows in [lo, hi).
func (x *Index) scan(q []float32, k, lo, hi int) topK {
	h := make(topK, 0, k)
	d := x.dim
	for i := lo; i < hi; i++ {
		s := dot(q, x.vecs[i*d:(i+1)*d])
		c := Hit{ID: x.ids[i], Score: s}
		if len(h) < k {
			heap.Push(&h, c)
		} else if better(c, h[0]) {
			h[0] = c
			heap.Fix(&h, 0)
		}
	}
	return h
}

// dot is the inner product, four lanes at a time so the compiler keeps
// independent sums in registers.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID > b.ID
}

// topK is a min-heap on quality: the worst kept hit is at the root.
type topK []Hit

func (h topK) Len() int           { return len(h) }
func (h topK) Less(i, j int) bool { return better(h[j], h[i]) }
func (h topK) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *topK) Push(v any)        { *h = append(*h, v.(Hit)) }
func (h *topK) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}
