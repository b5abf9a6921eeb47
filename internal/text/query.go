package text

import (
	"math"
	"slices"
	"unicode/utf8"
)

// DefaultMaxTerms is how many terms a search keeps when the caller does not
// say: enough for a long request, few enough to keep FTS queries cheap.
const DefaultMaxTerms = 12

// DocFreq reports in how many documents term occurs and how many documents
// there are. QueryTerms asks it once per distinct candidate term, and only
// when there are more candidates than it may keep.
type DocFreq func(term string) (docs, total int)

// QueryTerms returns at most limit distinct terms of the query q (limit <= 0
// means DefaultMaxTerms), in the order they first appear in q. When there
// are more candidates than that, the most informative win: by inverse
// document frequency when df is given and the corpus is not empty,
// otherwise by a fixed heuristic that favours code-shaped tokens, numbers,
// known technical abbreviations and longer words. A term the corpus has
// never seen (docs == 0) cannot match anything, so it is chosen last. Ties
// go to the earlier term; the result is deterministic.
func QueryTerms(q string, limit int, df DocFreq) []string {
	if limit <= 0 {
		limit = DefaultMaxTerms
	}
	toks := QueryTokens(q)
	terms := toks[:0] // dedupe in place, first occurrence wins
	seen := make(map[string]struct{}, len(toks))
	for _, t := range toks {
		if _, ok := seen[t]; !ok {
			seen[t] = struct{}{}
			terms = append(terms, t)
		}
	}
	if len(terms) <= limit {
		return terms
	}
	type cand struct {
		pos        int
		idf, shape float64
	}
	cands := make([]cand, len(terms))
	for i, t := range terms {
		cands[i] = cand{pos: i, shape: termShape(t)}
		if df != nil {
			cands[i].idf = idf(df(t))
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		switch {
		case a.idf != b.idf:
			return cmpDesc(a.idf, b.idf)
		case a.shape != b.shape:
			return cmpDesc(a.shape, b.shape)
		}
		return a.pos - b.pos
	})
	cands = cands[:limit]
	slices.SortFunc(cands, func(a, b cand) int { return a.pos - b.pos })
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = terms[c.pos]
	}
	return out
}

// idf is the BM25 inverse document frequency, always positive for a term
// that occurs; -1 for a term that does not, and 0 when nothing is known.
func idf(docs, total int) float64 {
	if total <= 0 {
		return 0
	}
	if docs <= 0 {
		return -1
	}
	docs = min(docs, total)
	return math.Log(1 + (float64(total-docs)+0.5)/(float64(docs)+0.5))
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

// termShape scores how informative a term looks without a corpus: length
// up to 12 characters, plus a bonus for joiners (paths, tickets,
// identifiers) and digits (numbers, versions, k8s), minus a malus for
// everyday words. A CJK bigram scores a little under a
// four-letter word: half of all bigrams straddle two words.
func termShape(t string) float64 {
	n := utf8.RuneCountInString(t)
	score := float64(min(n, 12))
	var letters, digits, joiners, cjk bool
	for _, r := range t {
		switch {
		case r >= '0' && r <= '9':
			digits = true
		case r == '.' || r == '-' || r == '_' || r == '/':
			joiners = true
		case r >= utf8.RuneSelf && isCJK(r):
			cjk = true
		default:
			letters = true
		}
	}
	switch {
	case cjk:
		score = 2 + 1.5*float64(n-1)
	case joiners:
		score += 6
	case digits && letters:
		score += 4
	case digits:
		score += 2
	}
	if _, ok := techWords[t]; ok {
		score = max(score, 7)
	}
	if _, ok := commonWords[t]; ok {
		score -= 4
	}
	return score
}

// techWords are short tokens that carry a lot of meaning in a coding
// session; without a corpus they rank like a long word. Read-only.
var techWords = wordSet(`
ai api aws bug cd ci cli cpu css db dev dns env gcp git go gpu gql html http
https id io ios js json jwt k8s llm lsp mcp ml npm oom orm os pr qa rpc s3 sdk
sql ssh ssl tls ts tsx ui ux url uuid vm vpn wsl xml yaml
`)

// commonWords are not stop words (they are still searched), but say little
// about what a request is looking for. Stemmed, as QueryTokens returns them.
// Read-only.
var commonWords = wordSet(`
use make made get got need want know think thing way work good new see look
tri tell take time like still back first last earlier previous previousli
remember recal help find show give
`)
