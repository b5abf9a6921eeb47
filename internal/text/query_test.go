package text

import (
	"slices"
	"strings"
	"testing"
)

func TestQueryTermsHeuristic(t *testing.T) {
	tests := []struct {
		name, q string
		max     int
		want    string
	}{
		{"under the cap: all, deduplicated, in order", "deploy render deploy oregon", 5,
			"deploy render oregon"},
		{"code-shaped tokens win", "please fix the flaky test in internal/net/url_test.go for PAY-1432 and make it work again", 3,
			"internal/net/url_test.go url_test.go pay-1432"},
		{"technical abbreviations beat everyday words", "make it work on k8s and ci please, need help", 2,
			"k8s ci"},
		{"numbers are informative", "retry 5 times then give up", 2, "retri 5"},
		{"ties keep the earlier term", "alpha bravo delta gamma", 2, "alpha bravo"},
		{"latin names beat cjk bigrams", "我们决定统一用 pnpm，不要用 npm。", 2, "pnpm npm"},
		{"nothing left", "the of and", 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := QueryTerms(tt.q, tt.max, nil)
			if !slices.Equal(got, words(tt.want)) {
				t.Errorf("QueryTerms(%q, %d)\n got  %q\n want %q", tt.q, tt.max, got, words(tt.want))
			}
		})
	}
}

func TestQueryTermsDefaultMax(t *testing.T) {
	q := "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa"
	got := QueryTerms(q, 0, nil)
	if len(got) != DefaultMaxTerms {
		t.Fatalf("QueryTerms(q, 0, nil) returned %d terms, want %d: %q", len(got), DefaultMaxTerms, got)
	}
	if !slices.IsSortedFunc(got, func(a, b string) int { return strings.Index(q, a) - strings.Index(q, b) }) {
		t.Errorf("terms not in query order: %q", got)
	}
}

func TestQueryTermsDocFreq(t *testing.T) {
	counts := map[string]int{
		"deploy": 90, "target": 40, "render": 2, "oregon": 5, "product": 50,
	}
	df := func(term string) (int, int) { return counts[term], 100 }
	tests := []struct {
		name, q string
		max     int
		want    string
	}{
		{"rarest terms win, query order kept", "deploy target production render oregon", 2, "render oregon"},
		{"unseen terms come last", "deploy zanzibar render", 2, "deploy render"},
		{"unseen terms still fill free slots", "zanzibar render", 2, "zanzibar render"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := QueryTerms(tt.q, tt.max, df)
			if !slices.Equal(got, words(tt.want)) {
				t.Errorf("QueryTerms(%q, %d, df)\n got  %q\n want %q", tt.q, tt.max, got, words(tt.want))
			}
		})
	}
}

func TestQueryTermsEmptyCorpusFallsBack(t *testing.T) {
	empty := func(string) (int, int) { return 0, 0 }
	q := "make it work on k8s and ci please, need help"
	if got, want := QueryTerms(q, 2, empty), QueryTerms(q, 2, nil); !slices.Equal(got, want) {
		t.Errorf("with an empty corpus got %q, want the heuristic's %q", got, want)
	}
}

func TestQueryTermsDeterministic(t *testing.T) {
	q := "fix the flaky TestParseURL in internal/net/url_test.go for PAY-1432 then deploy v1.2.3 to render 我们决定统一用 pnpm"
	first := QueryTerms(q, 5, nil)
	for range 20 {
		if got := QueryTerms(q, 5, nil); !slices.Equal(got, first) {
			t.Fatalf("QueryTerms changed between calls: %q then %q", first, got)
		}
	}
}

// TestHeuristicListsAreTokens: the heuristic's lists must be spelled as
// QueryTokens writes terms (stemmed), or they would never apply.
func TestHeuristicListsAreTokens(t *testing.T) {
	for name, set := range map[string]map[string]struct{}{"techWords": techWords, "commonWords": commonWords} {
		for w := range set {
			if got := Tokens(w); !slices.Equal(got, []string{w}) {
				t.Errorf("%s entry %q tokenizes as %q", name, w, got)
			}
			if IsStopWord(w) {
				t.Errorf("%s entry %q is a stop word and never reaches selection", name, w)
			}
		}
	}
}
