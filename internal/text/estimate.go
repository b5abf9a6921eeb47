package text

import (
	"unicode"
	"unicode/utf8"
)

// EstimateTokens guesses how many model tokens s costs, for budgets: about
// four ASCII characters per token (English prose and code both land near
// it with current tokenizers), one token per CJK character, and half a
// token for any other non-ASCII character (accented Latin, Cyrillic,
// emoji), rounded up. It is cheap and errs a little high; it is not any
// one model's tokenizer.
func EstimateTokens(s string) int {
	quarters, cjk := 0, 0 // quarters of a token
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			quarters++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if isCJK(r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFF65 {
			cjk++ // ideographs, kana, Hangul, and their punctuation
			continue
		}
		if unicode.IsSpace(r) {
			quarters++
			continue
		}
		quarters += 2
	}
	return cjk + (quarters+3)/4
}
