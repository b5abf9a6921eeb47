package memory

import "strings"

// NeighbourKey names a part by its session and its place in it.
type NeighbourKey struct {
	Session int64
	Seq     int
}

// Neighbours are parts' texts (or their starts) by session and seq, read
// by a store to build other parts' contexts.
type Neighbours map[NeighbourKey]string

// Contexts gives each part's context: the texts of the parts up to win
// before and after it in its session, in session order, one a line.
func (n Neighbours) Contexts(parts []Match, win int) []string {
	out := make([]string, len(parts))
	for i, c := range parts {
		var b strings.Builder
		for d := -win; d <= win; d++ {
			if t, ok := n[NeighbourKey{c.SessionID, c.PartSeq + d}]; ok && d != 0 {
				b.WriteString(t)
				b.WriteByte('\n')
			}
		}
		out[i] = b.String()
	}
	return out
}
