package redact

import "strings"

// Marker is the text that replaces a secret of the given kind.
func Marker(kind string) string { return "[REDACTED:" + kind + "]" }

// maxPasses bounds the rescans in find; real text settles after one.
const maxPasses = 8

// find returns the hits in t, in order and not overlapping, and t with
// them replaced. Replacing a secret changes what its neighbours see (a body
// that ran into the next token and was too long now ends at a marker, say),
// so find rescans the redacted text and adds what turns up until nothing
// does: redacting the output again then changes nothing.
func (r *Redactor) find(t string) ([]hit, string) {
	hits := r.scanOnce(t)
	if len(hits) == 0 {
		return nil, t
	}
	out, kept := apply(t, hits)
	for pass := 1; pass < maxPasses; pass++ {
		more := r.scanOnce(out)
		if len(more) == 0 {
			break
		}
		// New hits avoid markers, so each lies inside one kept stretch.
		k := 0
		for i := range more {
			for kept[k].at+kept[k].to-kept[k].from < more[i].end {
				k++
			}
			shift := kept[k].from - kept[k].at
			more[i].start += shift
			more[i].end += shift
		}
		hits = merge(append(hits, more...))
		out, kept = apply(t, hits)
	}
	return hits, out
}

// stretch is a kept range [from, to) of the scanned text and where it
// starts (at) in the redacted text.
type stretch struct{ from, to, at int }

// apply replaces the hits in t with markers and lists the kept stretches.
func apply(t string, hits []hit) (string, []stretch) {
	var b strings.Builder
	b.Grow(len(t) + 16*len(hits))
	kept := make([]stretch, 0, len(hits)+1)
	last := 0
	for _, h := range hits {
		kept = append(kept, stretch{last, h.start, b.Len()})
		b.WriteString(t[last:h.start])
		b.WriteString(Marker(h.kind))
		last = h.end
	}
	kept = append(kept, stretch{last, len(t), b.Len()})
	b.WriteString(t[last:])
	return b.String(), kept
}

// scanOnce runs the scanner over t and returns its hits merged, with any
// part that falls on a marker cut away: a marker is never redacted again.
func (r *Redactor) scanOnce(t string) []hit {
	sc := scanner{r: r, s: t}
	sc.run()
	if len(sc.markers) > 0 {
		sc.hits = avoid(sc.hits, sc.markers)
	}
	return merge(sc.hits)
}

// markerAt reports the end of the marker whose "REDACTED" run is s[a:e],
// or -1.
func markerAt(s string, a, e int) int {
	if e-a != len("REDACTED") || a == 0 || s[a-1] != '[' || e >= len(s) || s[e] != ':' || s[a:e] != "REDACTED" {
		return -1
	}
	n := csKind.span(s, e+1, 64)
	if n == 0 || e+1+n >= len(s) || s[e+1+n] != ']' {
		return -1
	}
	return e + 2 + n
}

var csKind = newCharset("a-z0-9-")

// avoid cuts the marker ranges ms (in order) out of the hits.
func avoid(hs []hit, ms []seg) []hit {
	out := make([]hit, 0, len(hs))
	for _, h := range hs {
		for _, m := range ms {
			if m.to <= h.start || m.from >= h.end {
				continue
			}
			if m.from > h.start {
				p := h
				p.end = m.from
				out = append(out, p)
			}
			h.start = m.to
			if h.start >= h.end {
				break
			}
		}
		if h.start < h.end {
			out = append(out, h)
		}
	}
	return out
}
