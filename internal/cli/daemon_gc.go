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
	limit   int64 // the soft memory limit last set
}

// idleGCPercent is GOGC during answers. A soft memory limit of the
// default goal plus idleGCRoom, set after each answer, keeps a large
// request (a long Stop capture, in a process holding a big semantic
// index) from growing the heap to five times its live size.
const (
	idleGCPercent = 400
	idleGCRoom    = 64 << 20
)

// newIdleGC raises GOGC unless the user set it or a memory limit, and
// returns nil then.
func newIdleGC() *idleGC {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
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
	defer g.mu.Unlock()
	metrics.Read(g.samples)
	live, heap := g.samples[0].Value.Uint64(), g.samples[1].Value.Uint64()
	if heap > max(2*live, 4<<20) {
		runtime.GC()
		metrics.Read(g.samples)
		live = g.samples[0].Value.Uint64()
	}
	if limit := int64(2*live + idleGCRoom); limit != g.limit {
		debug.SetMemoryLimit(limit)
		g.limit = limit
	}
}
