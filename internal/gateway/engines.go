package gateway

import (
	"context"
	"errors"
	"sync"

	"github.com/cairn-memory/cairn/internal/memory"
)

// engines caches one engine per account: an engine holds its account's
// vault and caches, and is built on the account's first request.
type engines struct {
	open   Opener
	places *places
	mu     sync.Mutex
	byAcct map[memory.AccountID]*engineSlot
}

type engineSlot struct {
	once sync.Once
	eng  Engine
	err  error
}

func (p *engines) get(ctx context.Context, acct memory.AccountID) (Engine, error) {
	p.mu.Lock()
	if p.byAcct == nil {
		p.byAcct = map[memory.AccountID]*engineSlot{}
	}
	s, ok := p.byAcct[acct]
	if !ok {
		s = &engineSlot{}
		p.byAcct[acct] = s
	}
	p.mu.Unlock()
	s.once.Do(func() { s.eng, s.err = p.open(ctx, acct, p.places.resolver(acct)) })
	if s.err != nil {
		// A failed open is retried by the next request.
		p.mu.Lock()
		if p.byAcct[acct] == s {
			delete(p.byAcct, acct)
		}
		p.mu.Unlock()
	}
	return s.eng, s.err
}

// each calls fn for every open engine.
func (p *engines) each(fn func(memory.AccountID, Engine)) {
	p.mu.Lock()
	var accts []memory.AccountID
	var engs []Engine
	for a, s := range p.byAcct {
		if s.eng != nil {
			accts, engs = append(accts, a), append(engs, s.eng)
		}
	}
	p.mu.Unlock()
	for i := range accts {
		fn(accts[i], engs[i])
	}
}

func (p *engines) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, s := range p.byAcct {
		if s.eng != nil {
			errs = append(errs, s.eng.Close())
		}
	}
	p.byAcct = nil
	return errors.Join(errs...)
}
