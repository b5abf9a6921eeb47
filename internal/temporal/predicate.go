package temporal

import (
	"sort"
	"strings"
	"unicode"

	"github.com/cairn-memory/cairn/internal/text"
)

// NormalizePredicate spells a predicate one way: lowercase words joined
// by underscores ("Deploy Target", "deploy-target", "deployTarget" →
// "deploy_target"). Letters of any script are kept.
func NormalizePredicate(p string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(strings.TrimSpace(p))
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && i > 0 && len(cur) > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return strings.Join(words, "_")
}

// generic words say little about which slot a predicate names: ci_provider,
// ci_platform and ci_service are all the CI.
var generic = map[string]bool{
	"provider": true, "platform": true, "service": true, "system": true, "tool": true, "tooling": true,
	"vendor": true, "name": true, "current": true, "our": true, "the": true, "is": true, "are": true,
	"used": true, "using": true, "main": true, "primary": true, "default": true, "person": true,
	"engineer": true, "value": true, "setting": true, "type": true, "kind": true, "choice": true,
	"of": true, "for": true, "to": true, "target": true, "destination": true, "engine": true, "on": true, "in": true, "at": true, "run": true, "runs": true,
}

// synonyms fold words that name the same thing.
var synonyms = map[string]string{
	"db": "database", "databas": "database", "pkg": "package", "deployment": "deploy", "deployed": "deploy",
	"deploys": "deploy", "oncall": "on_call", "on_call": "on_call", "repo": "repository", "continuous_integration": "ci",
	"k8s": "kubernetes", "env": "environment", "lang": "language", "ticket": "ticket", "issue": "ticket",
	"host": "host", "hosting": "host", "hosted": "host", "region": "region", "cloud": "host",
}

// SlotKey is what two predicates must share to name one slot: their
// meaningful words, stemmed and folded through the synonym table, in order.
func SlotKey(predicate string) string {
	p := NormalizePredicate(predicate)
	if s, ok := synonyms[p]; ok {
		return s
	}
	var keep []string
	parts := strings.Split(p, "_")
	for i := 0; i < len(parts); i++ {
		w := parts[i]
		if i+1 < len(parts) {
			if s, ok := synonyms[w+"_"+parts[i+1]]; ok {
				keep = append(keep, s)
				i++
				continue
			}
		}
		if generic[w] {
			continue
		}
		if s, ok := synonyms[w]; ok {
			w = s
		} else {
			w = text.Stem(w)
			if s, ok := synonyms[w]; ok {
				w = s
			}
		}
		keep = append(keep, w)
	}
	if len(keep) == 0 {
		return p
	}
	return strings.Join(keep, "_")
}

// Canonical returns the spelling under which a predicate is stored: the
// most used existing predicate that names the same slot, or the
// normalized predicate itself. top is the store's predicates, most used
// first.
func Canonical(predicate string, top []string) string {
	p := NormalizePredicate(predicate)
	key := SlotKey(p)
	for _, t := range top {
		if t == p || SlotKey(t) == key {
			return t
		}
	}
	return p
}

// TopPredicates orders predicate use counts, most used first, ties by
// name, at most n.
func TopPredicates(counts map[string]int, n int) []string {
	out := make([]string, 0, len(counts))
	for p := range counts {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if counts[out[i]] != counts[out[j]] {
			return counts[out[i]] > counts[out[j]]
		}
		return out[i] < out[j]
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}
