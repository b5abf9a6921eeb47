package recall

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/text"
)

// renderByDropping is Render's fitting as it was first written: drop the
// last line until the block fits, recomposing it after every line.
func renderByDropping(lines []Line, o Options) (kept, dropped []Line) {
	kept = make([]Line, len(lines))
	copy(kept, lines)
	for i := range kept {
		kept[i].Text = oneLine(kept[i].Text)
	}
	sort.SliceStable(kept, func(i, j int) bool { return keepBefore(kept[i], kept[j]) })
	drop := func() {
		dropped = append(dropped, kept[len(kept)-1])
		kept = kept[:len(kept)-1]
	}
	for o.BudgetTokens > 0 && len(kept) > 0 && !kept[len(kept)-1].Pinned && text.EstimateTokens(compose(kept, o)) > o.BudgetTokens {
		drop()
	}
	for len(kept) > 0 && !fits(compose(kept, o), o) {
		drop()
	}
	return kept, dropped
}

// TestRenderFitsAsDroppingDid: Render's bisection keeps and drops the same
// lines, in the same order, as dropping them one by one.
func TestRenderFitsAsDroppingDid(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	words := []string{"deploy", "staging", "PAY-1432", "rollback", "日本語", "naïve", "ledger", "a", "migration"}
	for trial := range 500 {
		var lines []Line
		for i := range r.IntN(25) {
			var b strings.Builder
			for range 1 + r.IntN(30) {
				b.WriteString(words[r.IntN(len(words))] + " ")
			}
			lines = append(lines, Line{Ref: fmt.Sprintf("n%d", i), Section: Section(r.IntN(int(sections))), Score: float64(r.IntN(10)),
				Pinned: r.IntN(6) == 0, Text: b.String()})
		}
		o := Options{Kind: Request, BudgetTokens: r.IntN(900), MaxChars: []int{0, 900, 2500}[r.IntN(3)], Searches: 2}
		wantKept, wantDropped := renderByDropping(lines, o)
		b := Render(lines, o)
		if len(wantKept) == 0 {
			wantKept = []Line{}
		}
		got := b.Lines
		if got == nil {
			got = []Line{}
		}
		if !reflect.DeepEqual(got, wantKept) || !reflect.DeepEqual(b.Dropped, wantDropped) {
			t.Fatalf("trial %d (%+v): kept %d dropped %d, want %d and %d", trial, o, len(got), len(b.Dropped), len(wantKept), len(wantDropped))
		}
	}
}
