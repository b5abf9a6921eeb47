package text

import (
	"hash/fnv"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// validToken reports what is wrong with tok under the FTS5 contract, or "".
func validToken(tok string) string {
	if tok == "" {
		return "empty"
	}
	if len(tok) > maxTokenLen {
		return "too long"
	}
	if !utf8.ValidString(tok) {
		return "invalid utf-8"
	}
	first, _ := utf8.DecodeRuneInString(tok)
	last, _ := utf8.DecodeLastRuneInString(tok)
	if strings.ContainsRune("_-./", first) || strings.ContainsRune("_-./", last) {
		return "starts or ends with a joiner"
	}
	for _, r := range tok {
		switch {
		case strings.ContainsRune("_-./", r):
		case unicode.IsSpace(r):
			return "whitespace"
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			return "not a letter or digit: " + string(r)
		case fold(r) != r:
			return "not case-folded: " + string(r)
		}
	}
	return ""
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"",
		"fix the flaky TestParseURL in internal/net/url_test.go for PAY-1432",
		"我们决定统一用 pnpm，不要用 npm。",
		"デプロイ先をRenderに変更しました",
		"see https://github.com/cairn-memory/cairn/issues/42?x=1 or mail alice@example.com",
		"CI Go k8s S3 UI DB PR QA JS TS AI APIs IPv6 don't v2.0.0-rc.1",
		"ΟΔΟΣ Straße İstanbul cafe\u0301 ǅ ﬁ ᦰ\u19b0 Ｆｕｌｌ",
		"\xff\xfe--..__//''’’",
		strings.Repeat("aZ3", 40),
	} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = 1 + int(uint(max)%20)
		toks := Tokens(s)
		for _, tok := range toks {
			if why := validToken(tok); why != "" {
				t.Fatalf("Tokens(%q): token %q: %s", s, tok, why)
			}
		}
		if again := Tokens(s); !slices.Equal(toks, again) {
			t.Fatalf("Tokens(%q) not deterministic: %q then %q", s, toks, again)
		}
		if got := IndexText(s); got != strings.Join(toks, " ") {
			t.Fatalf("IndexText(%q) = %q, Tokens joined = %q", s, got, strings.Join(toks, " "))
		}
		index := make(map[string]bool, len(toks))
		for _, tok := range toks {
			index[tok] = true
		}
		q := QueryTokens(s)
		for _, tok := range q {
			if !index[tok] {
				t.Fatalf("QueryTokens(%q) has %q, not in Tokens %q", s, tok, toks)
			}
		}
		df := func(term string) (int, int) {
			h := fnv.New32a()
			h.Write([]byte(term))
			return int(h.Sum32() % 50), 40
		}
		for _, d := range []DocFreq{nil, df} {
			terms := QueryTerms(s, max, d)
			if len(terms) > max {
				t.Fatalf("QueryTerms(%q, %d) returned %d terms", s, max, len(terms))
			}
			if again := QueryTerms(s, max, d); !slices.Equal(terms, again) {
				t.Fatalf("QueryTerms(%q, %d) not deterministic: %q then %q", s, max, terms, again)
			}
			last := -1
			for _, term := range terms {
				if !index[term] {
					t.Fatalf("QueryTerms(%q) has %q, not in Tokens %q", s, term, toks)
				}
				i := slices.Index(q, term)
				if i <= last {
					t.Fatalf("QueryTerms(%q) = %q: duplicate or out of query order", s, terms)
				}
				last = i
			}
		}
		if BigramOverlap(s, s) != 1 || NewContent(s, s) || Jaccard(toks, toks) != 1 {
			t.Fatalf("%q is not identical to itself", s)
		}
		if (EstimateTokens(s) == 0) != (s == "") {
			t.Fatalf("EstimateTokens(%q) = %d", s, EstimateTokens(s))
		}
	})
}

func FuzzSimilarity(f *testing.F) {
	f.Add("retry 3 attempts", "retry 5 attempts")
	f.Add("我们决定统一用 pnpm", "我们决定统一用 npm")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, a, b string) {
		ta, tb := Tokens(a), Tokens(b)
		for _, v := range []float64{Jaccard(ta, tb), BigramOverlap(a, b)} {
			if v < 0 || v > 1 {
				t.Fatalf("similarity of %q and %q out of [0,1]: %v", a, b, v)
			}
		}
		if Jaccard(ta, tb) != Jaccard(tb, ta) || BigramOverlap(a, b) != BigramOverlap(b, a) {
			t.Fatalf("similarity of %q and %q not symmetric", a, b)
		}
		NewContent(a, b)
	})
}
