package text

// Bits of tokenizer.marks, one byte per rune of a CJK run.
const (
	markStop byte = 1 << iota // the rune is part of a stop word
	markKeep                  // the bigram starting at this rune is emitted
)

// cjk emits a run of CJK characters as overlapping bigrams, or a lone
// character as a unigram. In a query, bigrams touching a stop word are
// left out, except that every content character keeps at least one bigram:
// a stop list can never silence "目的" just because it holds "的".
func (t *tokenizer) cjk(run []byte, starts []int) {
	n := len(starts)
	// gram returns characters i and i+1 (or just i, the last one).
	gram := func(i int) []byte {
		if i+2 < n {
			return run[starts[i]:starts[i+2]]
		}
		return run[starts[i]:]
	}
	if !t.query {
		if n == 1 {
			t.emit(run)
			return
		}
		for i := 0; i+1 < n; i++ {
			t.emit(gram(i))
		}
		return
	}
	m := t.markStops(run, starts)
	if n == 1 {
		if m[0]&markStop == 0 {
			t.emit(run)
		}
		return
	}
	last := n - 2 // the last bigram starts here
	for i := 0; i <= last; i++ {
		if m[i]&markStop == 0 && m[i+1]&markStop == 0 {
			m[i] |= markKeep
		}
	}
	for j := range n {
		if m[j]&markStop != 0 {
			continue
		}
		covered := j <= last && m[j]&markKeep != 0 || j > 0 && m[j-1]&markKeep != 0
		if covered {
			continue
		}
		if j <= last {
			m[j] |= markKeep
		} else {
			m[j-1] |= markKeep
		}
	}
	for i := 0; i <= last; i++ {
		if m[i]&markKeep != 0 {
			t.emit(gram(i))
		}
	}
}

// markStops marks the characters of run that belong to stop words,
// matching the longest stop word first, left to right.
func (t *tokenizer) markStops(run []byte, starts []int) []byte {
	m := t.marks[:0]
	for range starts {
		m = append(m, 0)
	}
	t.marks = m
	end := func(j int) int { // where character j ends
		if j+1 < len(starts) {
			return starts[j+1]
		}
		return len(run)
	}
	for i := 0; i < len(starts); {
		n := min(maxCJKStop, len(starts)-i)
		for ; n > 0; n-- {
			if _, ok := cjkStop[string(run[starts[i]:end(i+n-1)])]; ok {
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		for j := i; j < i+n; j++ {
			m[j] |= markStop
		}
		i += n
	}
	return m
}
