package text

import "testing"

// holdsByTokens is what TermSet.Holds must equal: membership in Tokens.
func holdsByTokens(terms []string, s string) uint64 {
	var m uint64
	toks := Tokens(s)
	for i, t := range terms {
		for _, tok := range toks {
			if tok == t {
				m |= 1 << i
				break
			}
		}
	}
	return m
}

func TestTermSetHolds(t *testing.T) {
	cases := []struct {
		name  string
		terms []string
		text  string
		want  uint64
	}{
		{"stem of a longer word", []string{"deploy", "cach"}, "We Deployed it after caching", 0b11},
		{"stem that changes an earlier letter", []string{"die", "tri"}, "the process keeps dying; try again", 0b11},
		{"camel and snake parts", []string{"limit", "amount", "limit_amount", "parseconfig"}, "call limit_amount then parseConfig()", 0b1111},
		{"apostrophe elided", []string{"dont", "oreilly"}, "Don't buy O'Reilly", 0b11},
		{"ticket and version", []string{"pay-1432", "1432", "1.2.3"}, "fix PAY-1432 in v1.2.3", 0b111},
		{"prefix is not the token", []string{"deploy"}, "redeployment", 0},
		{"non-ASCII piece tokenized", []string{"resum", "kube"}, "my re\u0301sume\u0301 \u212Aube", 0b11},
		{"fullwidth ASCII", []string{"abc"}, "\uff21\uff22\uff23", 0b1},
		{"CJK term", []string{"部署", "deploy"}, "今天部署了 deploy", 0b11},
		{"nothing", []string{"ledger"}, "the payment service", 0},
		{"one-letter term", []string{"x", "y"}, "axis x", 0b1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := NewTermSet(c.terms).Holds(c.text)
			if ref := holdsByTokens(c.terms, c.text); ref != c.want {
				t.Fatalf("the table is wrong: Tokens(%q) = %q gives %b, not %b", c.text, Tokens(c.text), ref, c.want)
			}
			if got != c.want {
				t.Fatalf("Holds(%q) = %b, want %b (tokens %q)", c.text, got, c.want, Tokens(c.text))
			}
		})
	}
}

func FuzzTermSetHolds(f *testing.F) {
	for _, s := range []string{"We Deployed it after caching", "Don't buy O'Reilly", "fix PAY-1432 in v1.2.3",
		"call limit_amount then parseConfig()", "今天部署了 deploy", "re\u0301sume\u0301 \u212Aube", "dying lying tying skies",
		"rock 'n' roll", "src/internal/Text/holds.go APIs URLs", "\uff21\uff22\uff23 ｄｅｐｌｏｙ"} {
		f.Add(s, "the deploy and dying of caches")
	}
	f.Fuzz(func(t *testing.T, s, other string) {
		// Terms: some of the text's own tokens, some of another text's.
		var terms []string
		for i, tok := range Tokens(s) {
			if i%3 == 0 {
				terms = append(terms, tok)
			}
		}
		terms = append(terms, Tokens(other)...)
		if len(terms) > 12 {
			terms = terms[:12]
		}
		ts := NewTermSet(terms)
		got, want := ts.Holds(s), holdsByTokens(terms, s)
		if got != want {
			t.Fatalf("Holds(%q) over %q = %b, Tokens give %b", s, terms, got, want)
		}
		// HoldsOf answers for the terms asked, here every other one.
		of := ts.All() & 0x5555555555555555
		if got := ts.HoldsOf(s, of); got&of != want&of {
			t.Fatalf("HoldsOf(%q, %b) over %q = %b, Tokens give %b", s, of, terms, got, want)
		}
	})
}

func BenchmarkTermSetHolds(b *testing.B) {
	for _, sample := range []struct{ name, text string }{{"english", readSample(b, "bench_en.txt")}, {"code", codeSample(b)}} {
		text := benchText(b, sample.text)[:2048] // what coverage reads of a row
		b.Run(sample.name, func(b *testing.B) { benchmarkHolds(b, text) })
	}
}

func benchmarkHolds(b *testing.B, text string) {
	terms := QueryTerms("where is the payment ledger service configured after the deploy", 12, nil)
	b.Run("termset", func(b *testing.B) {
		ts := NewTermSet(terms)
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			ts.Holds(text)
		}
	})
	b.Run("tokens", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			holdsByTokens(terms, text)
		}
	})
}
