package engine

import (
	"slices"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/rank"
)

func TestMatchTerms(t *testing.T) {
	terms := func(ts ...string) []rank.Term {
		out := make([]rank.Term, len(ts))
		for i, s := range ts {
			out[i] = rank.Term{Text: s}
		}
		return out
	}
	// A sampled store: 4,000 of 100,000 counted, counts stopping at 200
	// (each sampled document stands for 25 rows).
	sampled := func(df map[string]int, older ...string) memory.TermStats {
		st := memory.TermStats{Docs: 4000, Total: 100_000, Cap: 200, DF: df}
		for _, o := range older {
			if st.Older == nil {
				st.Older = map[string]bool{}
			}
			st.Older[o] = true
		}
		return st
	}
	for _, tc := range []struct {
		name  string
		terms []rank.Term
		st    memory.TermStats
		match []string
		all   bool
		// together is what the derived layers are also asked for.
		together []string
	}{
		{"no statistics", terms("a"), memory.TermStats{}, nil, false, nil},
		{"few rows: exact", terms("a", "b"), sampled(map[string]int{"a": 100, "b": 150}), nil, false, nil},
		{"a small store is exact whatever its counts", terms("a", "b", "c"),
			memory.TermStats{Docs: 5882, Total: 5882, Cap: 1000, DF: map[string]int{"a": 1000, "b": 1000, "c": 1000}}, nil, false, nil},
		{"a small store past exactRows keeps its rare terms", terms("a", "b", "c"),
			memory.TermStats{Docs: 20000, Total: 20000, Cap: 1000, DF: map[string]int{"a": 1000, "b": 1000, "c": 9000}}, []string{"a"}, false, nil},
		// 9,775 rows estimated, but "index" may hold half the store.
		{"capped terms are not exact", terms("x", "index", "session"),
			sampled(map[string]int{"index": 200, "session": 190, "x": 1}), []string{"x"}, false, nil},
		{"one capped term is not exact", terms("web", "w1"), sampled(map[string]int{"web": 200, "w1": 3}), []string{"w1"}, false, nil},
		{"every term common: newest rows holding the rarest", terms("a", "b", "c", "d"),
			sampled(map[string]int{"a": 200, "b": 100, "c": 200, "d": 90}), []string{"d", "b", "a"}, true, nil},
		{"unseen and nowhere else: newest rows of the common", terms("web-1009", "web"),
			sampled(map[string]int{"web": 200}), []string{"web"}, true, nil},
		// "web" is the ticket's own prefix: every row holding it is not
		// what the request is about.
		{"unseen but held by older rows: ranked on it", terms("web-1009", "1009", "web"),
			sampled(map[string]int{"web": 200}, "web-1009"), []string{"web-1009", "1009"}, false, nil},
		{"one common word beside an old ticket: ranked on the ticket alone", terms("web-1009", "1009", "web", "deploy"),
			sampled(map[string]int{"web": 200, "deploy": 150}, "web-1009"), []string{"web-1009", "1009"}, false, nil},
		{"common words beside an old ticket: derived layers read them", terms("web-1009", "1009", "web", "deploy", "fail"),
			sampled(map[string]int{"web": 200, "deploy": 150, "fail": 120}, "web-1009"), []string{"web-1009", "1009"}, false, []string{"fail", "deploy"}},
		// A rule worded as the request holds its common words, not the
		// class name only older turns hold.
		{"unseen older term and common words: derived layers read both", terms("currencykeywindow", "第一", "一次", "请求", "特别"),
			sampled(map[string]int{"第一": 200, "一次": 200, "请求": 150, "特别": 120}, "currencykeywindow"),
			[]string{"currencykeywindow"}, false, []string{"特别", "请求", "第一"}},
		{"a rare seen term kept: nothing more", terms("x", "web"),
			sampled(map[string]int{"x": 2, "web": 200}), []string{"x"}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			match, all, together := matchTerms(tc.terms, tc.st)
			if !slices.Equal(match, tc.match) || all != tc.all || !slices.Equal(together, tc.together) {
				t.Errorf("matchTerms = %q, %v, %q; want %q, %v, %q", match, all, together, tc.match, tc.all, tc.together)
			}
		})
	}
}
