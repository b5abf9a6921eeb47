package app

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPU is Linux's CLOCK_THREAD_CPUTIME_ID: the calling thread's
// CPU time in nanoseconds, from the scheduler's own accounting.
// getrusage's per-thread figure, used before, is apportioned from timer
// ticks here: for 1.5 ms of work it read anything from 5 µs to 1.2 ms.
const clockThreadCPU = 3

// threadCPU is the CPU time (user and system) the calling OS thread has
// used. A benchmark locked to its thread reads it around one operation:
// on a shared machine the CPU an operation costs moves far less with the
// load than its wall time does. SQLite through modernc runs on the
// calling goroutine, so the figure holds the store's work too.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPU, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
