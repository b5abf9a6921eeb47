package text

// maxCamelParts bounds how many parts a camel-case word may split into.
// More humps than that is usually a random string (base64, an ID), whose
// "parts" would only add noise to the index.
const maxCamelParts = 8

// camelCuts writes into cuts the byte offsets where a camel-case word
// splits and returns how many there are; 0 means "do not split". A cut
// falls before a capital that follows a lowercase letter or a digit
// ("camelCase", "s3Bucket"), and before the last capital of a run when at
// least two lowercase letters follow ("HTTPServer" → HTTP|Server, but
// "IPv6" and "URLs" stay whole). A split into more than maxCamelParts
// parts, or with more than one single-letter part or more than one part
// holding digits, is refused: that is an ID or a key, not an identifier.
func camelCuts(kinds []byte, cuts []int) int {
	n := 0
	var prev byte
	for i, k := range kinds {
		if k == kCont {
			continue
		}
		if k == kUpper && i > 0 {
			cut := prev == kLower || prev == kDigit ||
				prev == kUpper && lowerRun(kinds, i+1) >= 2
			if cut {
				if n+1 >= maxCamelParts || n >= len(cuts) {
					return 0
				}
				cuts[n] = i
				n++
			}
		}
		prev = k
	}
	if n == 0 {
		return 0
	}
	singles, numbered, start := 0, 0, 0
	for j := 0; j <= n; j++ {
		end := len(kinds)
		if j < n {
			end = cuts[j]
		}
		if runeCount(kinds[start:end]) == 1 {
			singles++
		}
		if hasKind(kinds[start:end], kDigit) {
			numbered++
		}
		start = end
	}
	if singles > 1 || numbered > 1 {
		return 0
	}
	return n
}

// lowerRun counts the lowercase runes from byte offset i on.
func lowerRun(kinds []byte, i int) int {
	n := 0
	for ; i < len(kinds); i++ {
		switch kinds[i] {
		case kCont:
		case kLower:
			n++
		default:
			return n
		}
	}
	return n
}

func runeCount(kinds []byte) int {
	n := 0
	for _, k := range kinds {
		if k != kCont {
			n++
		}
	}
	return n
}

func hasKind(kinds []byte, kind byte) bool {
	for _, k := range kinds {
		if k == kind {
			return true
		}
	}
	return false
}
