package redact

// charset is a byte class held as a lookup table, so that testing a byte
// costs one load.
type charset [256]bool

// newCharset builds a class from a spec of single bytes and a-z style
// ranges; a '-' that is first or last stands for itself.
func newCharset(spec string) *charset {
	var cs charset
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := int(spec[i]); c <= int(spec[i+2]); c++ {
				cs[c] = true
			}
			i += 2
			continue
		}
		cs[spec[i]] = true
	}
	return &cs
}

// subsetOf reports whether every byte of cs is also in o.
func (cs *charset) subsetOf(o *charset) bool {
	for c := range cs {
		if cs[c] && !o[c] {
			return false
		}
	}
	return true
}

// span counts the bytes of s from i on that are in cs, stopping at limit.
func (cs *charset) span(s string, i, limit int) int {
	k := i
	for k < len(s) && k-i < limit && cs[s[k]] {
		k++
	}
	return k - i
}

// The classes the rules are written with. They are never written after
// package initialisation.
var (
	// csWord is the class of token runs: the scanner splits text into
	// maximal runs of these bytes, and a token must not touch one.
	csWord     = newCharset("A-Za-z0-9_-")
	csAlnum    = newCharset("A-Za-z0-9")
	csAlnumU   = newCharset("A-Za-z0-9_")
	csLetters  = newCharset("A-Za-z")
	csDigits   = newCharset("0-9")
	csHex      = newCharset("0-9a-f")
	csHexAny   = newCharset("0-9a-fA-F")
	csHexDash  = newCharset("0-9a-f-")
	csUpperDig = newCharset("A-Z0-9")
	csBase32   = newCharset("A-Z2-7")
	csBase64   = newCharset("A-Za-z0-9+/=")
	csB64Word  = newCharset("A-Za-z0-9+/=_-")
	csWordDot  = newCharset("A-Za-z0-9_.-")
	csWordEq   = newCharset("A-Za-z0-9_=-")
	csBech32   = newCharset("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
	// csBearer is RFC 6750's token68 alphabet.
	csBearer = newCharset("A-Za-z0-9._~+/=-")
)

func isWord(c byte) bool { return csWord[c] }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with the lower-case ASCII prefix p,
// ignoring case.
func hasPrefixFold(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lower(s[i]) != p[i] {
			return false
		}
	}
	return true
}

// equalFold reports whether s is the lower-case ASCII word p in any case.
func equalFold(s, p string) bool { return len(s) == len(p) && hasPrefixFold(s, p) }

// hasSuffixFold is hasPrefixFold at the other end.
func hasSuffixFold(s, p string) bool {
	return len(s) >= len(p) && hasPrefixFold(s[len(s)-len(p):], p)
}

// shape counts the classes of bytes in v.
type shape struct {
	upper, lower, digit, symbol, other int
	distinct                           int
}

func shapeOf(v string) shape {
	var sh shape
	var seen [256]bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !seen[c] {
			seen[c] = true
			sh.distinct++
		}
		switch {
		case 'A' <= c && c <= 'Z':
			sh.upper++
		case 'a' <= c && c <= 'z':
			sh.lower++
		case isDigit(c):
			sh.digit++
		case c == '_' || c == '-' || c == '.':
			sh.other++
		default:
			sh.symbol++
		}
	}
	return sh
}

func (sh shape) letters() int { return sh.upper + sh.lower }
