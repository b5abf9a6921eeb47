package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// idleGC moves the resident process's garbage collection out of its
// answers. The process's live heap is a few megabytes, so at the default
// GOGC a collection started every fourth hook at 1M parts, and the hook
// that tripped it paid about a millisecond of mark assist before it could
// answer. Instead the pacer is given room (idleGCPercent) and, after each
// answer is sent, a collection runs if the heap has grown as far as the
// default would have let it: memory stays where it was, and the client
// never waits on a collection a hook's own allocation started.
type idleGC struct {
	mu      sync.Mutex
	samples []metrics.Sample
}

// idleGCPercent is GOGC during answers: a large request (a long Stop
// capture) still triggers a collection of its own past 5× the live heap.
const idleGCPercent = 400

// newIdleGC raises GOGC unless the user set it, and returns nil then.
func newIdleGC() *idleGC {
	if os.Getenv("GOGC") != "" {
		return nil
	}
	debug.SetGCPercent(idleGCPercent)
	return &idleGC{samples: []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}}
}

// afterAnswer collects once the heap is past twice what the last
// collection left (the default GOGC's goal, with its 4 MB floor).
func (g *idleGC) afterAnswer() {
	if g == nil {
		return
	}
	g.mu.Lock()
	metrics.Read(g.samples)
	live, heap := g.samples[0].Value.Uint64(), g.samples[1].Value.Uint64()
	g.mu.Unlock()
	if heap > max(2*live, 4<<20) {
		runtime.GC()
	}
}
