package corpus

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// gen draws everything random for one session from its own stream, so a
// session's bytes depend only on the seed and its index.
type gen struct {
	r  *rand.Rand
	sb strings.Builder
}

func newGen(seed, stream uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, stream))}
}

// pick returns a random element of list.
func (g *gen) pick(list []string) string {
	return list[g.r.IntN(len(list))]
}

// between returns an int in [lo, hi].
func (g *gen) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + g.r.IntN(hi-lo+1)
}

// chance is true with probability p.
func (g *gen) chance(p float64) bool {
	return g.r.Float64() < p
}

// logBetween draws from [lo, hi] with a log-uniform spread: small values
// are common and large ones rare, as with real file and output sizes.
func (g *gen) logBetween(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	f := float64(lo) * math.Pow(float64(hi)/float64(lo), g.r.Float64())
	return min(hi, max(lo, int64(f)))
}

const (
	alnum     = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperB32  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	base64Set = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	urlB64Set = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	lowerHex  = "0123456789abcdef"
	digits    = "0123456789"
)

// chars returns n characters drawn from set.
func (g *gen) chars(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[g.r.IntN(len(set))]
	}
	return string(b)
}

// uuid4 is a random (version 4) UUID.
func (g *gen) uuid4() string {
	var b [16]byte
	hi, lo := g.r.Uint64(), g.r.Uint64()
	for i := range 8 {
		b[i] = byte(hi >> (8 * i))
		b[8+i] = byte(lo >> (8 * i))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

// uuid7 is a time-ordered (version 7) UUID, as Codex uses for thread and
// turn ids.
func (g *gen) uuid7(t time.Time) string {
	var b [16]byte
	ms := uint64(t.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (8 * (5 - i)))
	}
	r := g.r.Uint64()
	for i := 6; i < 14; i++ {
		b[i] = byte(r >> (8 * (i - 6)))
	}
	r = g.r.Uint64()
	b[14], b[15] = byte(r), byte(r>>8)
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

func formatUUID(b [16]byte) string {
	buf := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			buf = append(buf, '-')
		}
		buf = append(buf, lowerHex[c>>4], lowerHex[c&0xf])
	}
	return string(buf)
}

// stamp formats a time the way both clients do: UTC with milliseconds.
func stamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// itoa is strconv.Itoa, short for the many numbers in generated text.
func itoa(n int) string { return strconv.Itoa(n) }
