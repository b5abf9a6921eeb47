package sqlite

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// A search of episodes filters only its best matches; when too few of
// them pass (the current session's or forgotten episodes ranked first),
// it filters every match, and finds what filtering them all finds.
func TestEpisodeSearchPastFilteredBest(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	save := func(ext string, summaries ...string) (int64, []int64) {
		turns := make([]string, len(summaries))
		for i := range turns {
			turns[i] = fmt.Sprint("turn ", i)
		}
		c, err := db.SaveSession(ctx, memory.LocalAccount, session(ext, wtA, day0, turns...))
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for i, s := range summaries {
			id, err := db.SaveEpisode(ctx, memory.LocalAccount, memory.Episode{SessionID: c.SessionID, TurnID: c.Changed[fmt.Sprint(i)],
				Place: wtA, Summary: s, At: day0, Confidence: 1})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		return c.SessionID, ids
	}
	// The current session's episodes, more than the search's slack, and
	// a forgotten one rank first.
	var mine []string
	for i := range topEpisodesSlack + 4 {
		mine = append(mine, fmt.Sprint("refund refund refund ", i))
	}
	current, _ := save("now", mine...)
	_, forgot := save("old", "refund refund twice", "a refund once among many other words here", "refund and the payout")
	if _, err := db.SetEpisodeState(ctx, memory.LocalAccount, forgot[0], memory.ReasonForgotten); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 2, 3, 5} {
		for _, exclude := range []int64{0, current} {
			q := memory.SearchQuery{Terms: terms("refund"), Place: wtA, Rung: memory.RungWorktree, Limit: limit, ExcludeSession: exclude}
			want := wholeIndexEpisodes(t, db, memory.LocalAccount, q)
			got := searchHits(t, db, memory.LocalAccount, q)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("limit %d, excluding session %d:\n got %v\nwant %v", limit, exclude, got, want)
			}
		}
	}
}
