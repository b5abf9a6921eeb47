package temporal

import (
	"slices"
	"testing"
)

func TestAreSessionStatePredicates(t *testing.T) {
	all := SessionStatePredicates()
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	for _, tc := range []struct {
		name  string
		preds []string
		want  bool
	}{
		{"the list", all, true},
		{"in another order", reversed, true},
		{"one short", all[1:], false},
		{"one swapped for another predicate", append(slices.Clone(all[1:]), "ci"), false},
		{"one twice", append(slices.Clone(all[1:]), all[1]), false},
		{"none", nil, false},
	} {
		if got := AreSessionStatePredicates(tc.preds); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
