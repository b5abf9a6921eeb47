package text

import (
	"slices"
	"unicode"
)

// Jaccard returns |A∩B| / |A∪B| of the token sets of a and b: 1 for the
// same set, 0 for disjoint ones. Two empty sets count as the same set.
// cairn merges near-duplicate notes at 0.8 or more.
func Jaccard(a, b []string) float64 {
	sa, sb := sortedSet(a), sortedSet(b)
	if len(sa) == 0 && len(sb) == 0 {
		return 1
	}
	both := 0
	for i, j := 0, 0; i < len(sa) && j < len(sb); {
		switch {
		case sa[i] < sb[j]:
			i++
		case sa[i] > sb[j]:
			j++
		default:
			both++
			i++
			j++
		}
	}
	return float64(both) / float64(len(sa)+len(sb)-both)
}

func sortedSet(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}

// BigramOverlap returns the Dice coefficient of the character bigrams of a
// and b: 2·|A∩B| / (|A|+|B|), counting repeated bigrams as often as they
// occur. Both strings are first reduced to their lowercased letters and
// digits, so case, spacing and punctuation do not count. Two strings that
// reduce to the same text score 1, whatever their length; a string of
// fewer than two characters shares no bigram with any other. cairn treats
// 0.7 or more, with no NewContent, as a restatement.
func BigramOverlap(a, b string) float64 {
	ra, rb := foldRunes(a), foldRunes(b)
	if slices.Equal(ra, rb) {
		return 1
	}
	ba, bb := bigrams(ra), bigrams(rb)
	if len(ba)+len(bb) == 0 {
		return 0
	}
	both := 0
	for i, j := 0, 0; i < len(ba) && j < len(bb); {
		switch {
		case ba[i] < bb[j]:
			i++
		case ba[i] > bb[j]:
			j++
		default:
			both++
			i++
			j++
		}
	}
	return 2 * float64(both) / float64(len(ba)+len(bb))
}

// foldRunes keeps the letters and digits of s, lowercased, with fullwidth
// ASCII folded to ASCII.
func foldRunes(s string) []rune {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r >= 0xFF01 && r <= 0xFF5E {
			r -= 0xFEE0
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, fold(r))
		}
	}
	return out
}

// bigrams returns the sorted bigrams of rs, each packed in one uint64.
func bigrams(rs []rune) []uint64 {
	if len(rs) < 2 {
		return nil
	}
	out := make([]uint64, len(rs)-1)
	for i := range out {
		out[i] = uint64(rs[i])<<32 | uint64(rs[i+1])
	}
	slices.Sort(out)
	return out
}

// NewContent reports whether next says something prev does not, however
// close the wording: next has a search term (a QueryTokens token: a word
// stem, number, name, code token or CJK bigram, stop words aside) that
// Tokens(prev) lacks, or exactly one of them holds a negation. So "3
// attempts" → "5 attempts" is new content, and so is "use npm" → "don't
// use npm"; "our CI runs on CircleCI" → "our CI is running on CircleCI" is
// not. It errs towards "new": a missed restatement costs a row, a false one
// loses a value. It looks one way only: dropping a detail is not new.
func NewContent(prev, next string) bool {
	if negated(prev) != negated(next) {
		return true
	}
	old := make(map[string]struct{})
	for _, t := range Tokens(prev) {
		old[t] = struct{}{}
	}
	for _, t := range QueryTokens(next) {
		if _, ok := old[t]; !ok {
			return true
		}
	}
	return false
}

// negated reports whether s holds a negation word. Words are compared as
// written, before stemming; "don't" is "dont" after apostrophe elision.
func negated(s string) bool {
	var n negation
	var sc scanner
	sc.scan(s, &n)
	return n.found
}

// negation is the sink negated scans into.
type negation struct{ found bool }

func (n *negation) word(low, _ []byte) {
	if _, ok := negations[string(low)]; ok {
		n.found = true
	}
}

func (n *negation) cjk(text []byte, _ []int) {
	run := []rune(string(text))
	for i, r := range run {
		switch r {
		case '不', '没', '沒', '别', '別', '勿', '未', '无', '無', '非', '莫':
			n.found = true
		case 'な', 'ま': // Japanese ない, ません
			if i+1 < len(run) && (run[i+1] == 'い' && r == 'な' || run[i+1] == 'せ' && r == 'ま') {
				n.found = true
			}
		}
	}
}

// negations are English negation words as the scanner writes them.
// Read-only.
var negations = wordSet(`
no not never nor none nobody nothing neither without cannot cant dont doesnt
didnt isnt arent wasnt werent wont wouldnt shouldnt couldnt mustnt havent
hasnt hadnt neednt
`)
