package cli

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

func numGC() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

var gcSink [][]byte

func TestIdleGCCollectsOnlyPastTheDefaultGoal(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: the resident process leaves collection to them")
	}
	g := newIdleGC()
	defer debug.SetGCPercent(100)
	defer debug.SetMemoryLimit(math.MaxInt64)
	if got := debug.SetGCPercent(idleGCPercent); got != idleGCPercent {
		t.Fatalf("GOGC during answers is %d, want %d", got, idleGCPercent)
	}
	runtime.GC()
	n := numGC()
	g.afterAnswer()
	if numGC() != n {
		t.Fatal("collected with nothing allocated since the last collection")
	}
	// 12 MB of garbage: past the default goal, short of the raised one.
	for range 3000 {
		gcSink = append(gcSink, make([]byte, 4096))
	}
	gcSink = nil
	n = numGC()
	g.afterAnswer()
	if numGC() == n {
		t.Fatal("no collection after an answer with the heap past twice its live size")
	}
	// The soft limit caps growth within an answer at the default goal
	// plus the room.
	if got := debug.SetMemoryLimit(-1); got != g.limit || got < idleGCRoom || got > 1<<30 {
		t.Fatalf("memory limit %d after an answer (recorded %d)", got, g.limit)
	}
}
