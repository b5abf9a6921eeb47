package distill

import (
	"slices"
	"strings"

	"github.com/cairn-memory/cairn/internal/text"
)

// tokenSet is the sorted set of a text's search tokens.
func tokenSet(s string) []string {
	t := text.Tokens(s)
	slices.Sort(t)
	return slices.Compact(t)
}

// jaccard is |A∩B| / |A∪B| of two sorted sets, as text.Jaccard computes
// it for token lists, without building maps: merging duplicates compares
// every pair of a block's lines.
func jaccard(a, b []string) float64 {
	inter, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			inter++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

func union(a, b []int) []int {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

func union64(a, b []int64) []int64 {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

func unionStr(a, b []string) []string {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}
