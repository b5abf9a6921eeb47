package engine

import (
	"context"
	"sync"
)

// laterReceipts counts the receipt writes a caller took to run after its
// block went out (RecallRequest.Later) and that have not finished, so a
// read of a session's receipts waits for them: a session's next request
// must see what its standing block sent, and that it had a block.
type laterReceipts struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n returns to 0; nil while n is 0
}

func (l *laterReceipts) add() {
	l.mu.Lock()
	if l.n == 0 {
		l.idle = make(chan struct{})
	}
	l.n++
	l.mu.Unlock()
}

func (l *laterReceipts) done() {
	l.mu.Lock()
	if l.n--; l.n == 0 {
		close(l.idle)
		l.idle = nil
	}
	l.mu.Unlock()
}

// wait returns once no write is outstanding, or ctx ends.
func (l *laterReceipts) wait(ctx context.Context) error {
	l.mu.Lock()
	idle := l.idle
	l.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
