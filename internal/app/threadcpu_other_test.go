//go:build !linux

package app

import "time"

// threadCPU is not measured outside Linux: the CPU metrics read zero.
func threadCPU() time.Duration { return 0 }
