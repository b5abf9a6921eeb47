package redact

import (
	"sort"
	"strings"
)

// StripPrivate removes every <private>…</private> span (tags in any letter
// case, attributes allowed, nesting counted). An opening tag with no close
// removes everything after it, and a stray closing tag is removed on its
// own. Removal repeats until no tag is left, so a tag that only forms once
// a span is cut out ("<pri<private>x</private>vate>") is removed too.
func StripPrivate(s string) string { return stripPrivate(s).text }

// maxRounds bounds the removal rounds; real text needs one.
const maxRounds = 4

// seg is a kept byte range [from, to) of the original text.
type seg struct{ from, to int }

// stripped is a text with its private spans removed, and the map back to
// the original offsets.
type stripped struct {
	text    string
	removed int
	segs    []seg // nil when nothing was removed
	at      []int // at[i] is where segs[i] starts in text
}

func stripPrivate(s string) stripped {
	spans := privateSpans(s, nil)
	if len(spans) == 0 {
		return stripped{text: s}
	}
	st := stripped{segs: []seg{{0, len(s)}}}
	for round := 1; len(spans) > 0; round++ {
		st.removed += len(spans)
		if round > maxRounds {
			// Tags built to re-form round after round: drop everything
			// from the first one on rather than loop for ever.
			spans = append(spans[:0], [2]int{spans[0][0], len(st.text)})
		}
		st.segs = cut(st.segs, spans)
		var b strings.Builder
		for _, g := range st.segs {
			b.WriteString(s[g.from:g.to])
		}
		st.text = b.String()
		spans = privateSpans(st.text, spans[:0])
	}
	st.at = make([]int, len(st.segs))
	p := 0
	for i, g := range st.segs {
		st.at[i] = p
		p += g.to - g.from
	}
	return st
}

// orig maps an offset in the stripped text back to the original. An end
// offset maps just past its last byte, so a span never swallows the gap
// after it.
func (st stripped) orig(p int, end bool) int {
	if st.segs == nil {
		return p
	}
	q := p
	if end && q > 0 {
		q--
	}
	i := sort.Search(len(st.at), func(i int) bool { return st.at[i] > q }) - 1
	if i < 0 {
		return 0
	}
	o := st.segs[i].from + q - st.at[i]
	if end && p > 0 {
		o++
	}
	return o
}

// gaps lists the removed ranges of an original of length n.
func (st stripped) gaps(n int) []seg {
	if st.segs == nil {
		return nil
	}
	var out []seg
	p := 0
	for _, g := range st.segs {
		if g.from > p {
			out = append(out, seg{p, g.from})
		}
		p = g.to
	}
	if p < n {
		out = append(out, seg{p, n})
	}
	return out
}

// cut removes spans, given in the coordinates of the text the segments
// spell, from the segments.
func cut(segs []seg, spans [][2]int) []seg {
	var out []seg
	si, pos := 0, 0
	for _, g := range segs {
		l := g.to - g.from
		cur := pos
		for cur < pos+l {
			for si < len(spans) && spans[si][1] <= cur {
				si++
			}
			if si == len(spans) || spans[si][0] >= pos+l {
				out = append(out, seg{g.from + cur - pos, g.to})
				break
			}
			if sp := spans[si]; sp[0] > cur {
				out = append(out, seg{g.from + cur - pos, g.from + sp[0] - pos})
			}
			cur = spans[si][1]
		}
		pos += l
	}
	return out
}

const (
	tagNone = iota
	tagOpen
	tagClose
	tagEmpty // <private/>
)

// privateSpans appends the ranges of s to remove, in order.
func privateSpans(s string, spans [][2]int) [][2]int {
	depth, start := 0, 0
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		i += j
		kind, end := tagAt(s, i)
		switch kind {
		case tagOpen:
			if depth == 0 {
				start = i
			}
			depth++
		case tagClose:
			switch {
			case depth > 1:
				depth--
			case depth == 1:
				depth = 0
				spans = append(spans, [2]int{start, end})
			default:
				spans = append(spans, [2]int{i, end})
			}
		case tagEmpty:
			if depth == 0 {
				spans = append(spans, [2]int{i, end})
			}
		default:
			end = i + 1
		}
		i = end
	}
	if depth > 0 {
		spans = append(spans, [2]int{start, len(s)})
	}
	return spans
}

// tagAt recognises <private>, <private attr…>, <private/> and </private >
// at s[i] == '<' and returns the tag's kind and end.
func tagAt(s string, i int) (int, int) {
	j := i + 1
	kind := tagOpen
	if j < len(s) && s[j] == '/' {
		kind = tagClose
		j++
	}
	if !hasPrefixFold(s[j:], "private") {
		return tagNone, 0
	}
	j += len("private")
	if j >= len(s) {
		return tagNone, 0
	}
	switch c := s[j]; {
	case c == '>':
		return kind, j + 1
	case c == '/' && kind == tagOpen && j+1 < len(s) && s[j+1] == '>':
		return tagEmpty, j + 2
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		lim := min(len(s), j+256)
		k := strings.IndexAny(s[j:lim], "<>")
		if k < 0 || s[j+k] != '>' {
			return tagNone, 0
		}
		if kind == tagOpen && s[j+k-1] == '/' {
			return tagEmpty, j + k + 1
		}
		return kind, j + k + 1
	}
	return tagNone, 0
}
