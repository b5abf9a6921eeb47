package app

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// threadCPU is the CPU time (user and system) the calling OS thread has
// used. A benchmark locked to its thread reads it around one operation:
// on a shared machine the CPU an operation costs moves far less with the
// load than its wall time does. SQLite through modernc runs on the
// calling goroutine, so the figure holds the store's work too.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
