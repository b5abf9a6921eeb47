package sqlite

import "sync"

// dfCacheCap bounds the terms whose counts are kept; past it the cache
// starts over (a resident process sees one project's words again and
// again, so it refills with what is asked).
const dfCacheCap = 8192

// dfCache keeps TermStats' sampled counts between searches of a long-lived
// process (the resident hook process, the MCP server): counting a common
// term reads up to dfCap index entries, and twelve such counts were a
// tenth of a recall block. A count is reused while fewer than stale parts
// have been added since it was taken (TermStats passes a twentieth of the
// documents it samples), and only for the same window.
type dfCache struct {
	mu     sync.Mutex
	counts map[dfKey]dfCount
}

type dfKey struct {
	fts, term string
	window    int
}

type dfCount struct {
	n   int
	top int64 // the newest part id when counted
}

func (c *dfCache) get(k dfKey, top, stale int64) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.counts[k]
	if !ok || top < v.top || top-v.top >= max(stale, 1) {
		return 0, false
	}
	return v.n, true
}

func (c *dfCache) put(k dfKey, top int64, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil || len(c.counts) >= dfCacheCap {
		c.counts = make(map[dfKey]dfCount)
	}
	c.counts[k] = dfCount{n: n, top: top}
}
