package gateway

import (
	"sync"
	"time"
)

// limiter is a token bucket per API token: each token may send Rate
// requests a second on average and Burst at once.
type limiter struct {
	rate  float64
	burst float64
	now   func() time.Time
	mu    sync.Mutex
	b     map[int64]*bucket
}

type bucket struct {
	level float64
	at    time.Time
}

// allow takes one request from the token's bucket.
func (l *limiter) allow(token int64) bool {
	if l.rate <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.b == nil {
		l.b = map[int64]*bucket{}
	}
	b, ok := l.b[token]
	if !ok {
		b = &bucket{level: l.burst, at: now}
		l.b[token] = b
	}
	b.level = min(l.burst, b.level+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.level < 1 {
		return false
	}
	b.level--
	return true
}
