package gateway

import (
	"strings"
	"sync"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// maxPlaces bounds the places remembered per account.
const maxPlaces = 4096

// places remembers, per account, the place each directory resolved to on
// the client that sent it. The gateway cannot see a client's checkout, so
// a transcript it imports is placed by what the client reported for the
// same directory; a directory never reported is its own worktree and
// project.
type places struct {
	mu sync.Mutex
	m  map[memory.AccountID]map[string]memory.Place
}

func (p *places) learn(acct memory.AccountID, pl *memory.Place) {
	if pl == nil || pl.Worktree == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[memory.AccountID]map[string]memory.Place{}
	}
	byDir := p.m[acct]
	if byDir == nil {
		byDir = map[string]memory.Place{}
		p.m[acct] = byDir
	}
	if len(byDir) >= maxPlaces {
		clear(byDir)
	}
	byDir[pl.Worktree] = *pl
}

func (p *places) resolver(acct memory.AccountID) engine.PlaceResolver {
	return func(dir string) (memory.Place, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if pl, ok := p.m[acct][dir]; ok {
			return pl, nil
		}
		// A directory inside a reported worktree belongs to it, as a
		// client's own resolution of that directory would say.
		var best memory.Place
		for wt, pl := range p.m[acct] {
			if len(wt) > len(best.Worktree) && strings.HasPrefix(dir, strings.TrimRight(wt, `/\`)+sep(wt)) {
				best = pl
			}
		}
		if best.Worktree != "" {
			return best, nil
		}
		return memory.Place{Worktree: dir, Project: dir}, nil
	}
}

// sep is the path separator a client's path uses (clients may run another
// system than the gateway's).
func sep(path string) string {
	if strings.Contains(path, `\`) && !strings.Contains(path, "/") {
		return `\`
	}
	return "/"
}
