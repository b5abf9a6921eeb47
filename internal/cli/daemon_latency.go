package cli

import (
	"slices"
	"sync"
	"time"
)

// latencyWindow keeps how long the resident process took to answer its
// most recent hooks, so that `cairn daemon status` can say what a hook
// costs inside it, apart from the client's own start and exit.
type latencyWindow struct {
	mu   sync.Mutex
	ring [256]time.Duration
	n    int // answers recorded in all
}

func (w *latencyWindow) add(d time.Duration) {
	w.mu.Lock()
	w.ring[w.n%len(w.ring)] = d
	w.n++
	w.mu.Unlock()
}

// percentiles gives how many answers the window holds and their p50 and
// p95 (nearest rank); zero with none.
func (w *latencyWindow) percentiles() (n int, p50, p95 time.Duration) {
	w.mu.Lock()
	ds := slices.Clone(w.ring[:min(w.n, len(w.ring))])
	w.mu.Unlock()
	if len(ds) == 0 {
		return 0, 0, 0
	}
	slices.Sort(ds)
	rank := func(p int) time.Duration { return ds[max(0, (p*len(ds)+99)/100-1)] }
	return len(ds), rank(50), rank(95)
}
