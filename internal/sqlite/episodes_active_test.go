package sqlite

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// indexedEpisodes compares the episodes index with the active episodes:
// the rowids it holds, and the row count its averages record keeps
// (which bm25 divides by).
func indexedEpisodes(t *testing.T, db *DB) (indexed, active []int64, counted int64) {
	t.Helper()
	ids := func(q string) []int64 {
		out, err := queryIDs(context.Background(), db.read, q)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	indexed = ids(`SELECT id FROM episodes_fts_docsize ORDER BY id`)
	active = ids(`SELECT ` + episodeRowidSQL + ` AS r FROM episodes e` + episodePlaceJoin + ` WHERE e.expired_at = 0 ORDER BY r`)
	var rec []byte
	if err := db.read.QueryRow(`SELECT block FROM episodes_fts_data WHERE id = 1`).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	// SQLite's varint: big-endian groups of 7 bits, the high bit set on
	// every byte but the last.
	for _, c := range rec {
		counted = counted<<7 | int64(c&0x7f)
		if c < 0x80 {
			break
		}
	}
	return indexed, active, counted
}

func wantIndexedActive(t *testing.T, db *DB, when string) {
	t.Helper()
	indexed, active, counted := indexedEpisodes(t, db)
	if !slices.Equal(indexed, active) || counted != int64(len(active)) {
		t.Fatalf("%s: the index holds %d rows (its record counts %d), %d episodes are active\nindexed %v\nactive  %v",
			when, len(indexed), counted, len(active), indexed, active)
	}
}

// The episodes index holds the active episodes and no others: capping,
// forgetting and restoring move rows out of it and back, a purge leaves it
// as it is, and a search finds a restored episode again.
func TestEpisodeIndexHoldsActiveEpisodesOnly(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	_, eps := seedEpisodes(t, db)
	wantIndexedActive(t, db, "written")
	n, err := db.CapEpisodes(ctx, memory.LocalAccount, 3)
	if err != nil || n < 10 {
		t.Fatalf("capped %d (%v)", n, err)
	}
	wantIndexedActive(t, db, "capped")

	var capped, kept int64
	for id := range eps {
		ep, err := db.Episode(ctx, memory.LocalAccount, id)
		if err != nil {
			continue // the other account's
		}
		if ep.Reason == "capped" && len(strings.Fields(ep.Summary)) >= 2 && (capped == 0 || id < capped) {
			capped = id
		}
		if ep.ExpiredAt.IsZero() && (kept == 0 || id < kept) {
			kept = id
		}
	}
	if capped == 0 || kept == 0 {
		t.Fatalf("no capped (%d) or active (%d) episode to change", capped, kept)
	}
	if _, err := db.SetEpisodeState(ctx, memory.LocalAccount, kept, memory.ReasonForgotten); err != nil {
		t.Fatal(err)
	}
	wantIndexedActive(t, db, "one forgotten")
	restored, err := db.SetEpisodeState(ctx, memory.LocalAccount, capped, "")
	if err != nil {
		t.Fatal(err)
	}
	wantIndexedActive(t, db, "one restored")
	// Restoring an active episode changes nothing.
	if _, err := db.SetEpisodeState(ctx, memory.LocalAccount, capped, ""); err != nil {
		t.Fatal(err)
	}
	wantIndexedActive(t, db, "restored twice")

	q := memory.SearchQuery{Terms: terms(restored.Summary), Match: strings.Fields(text.IndexText(restored.Summary)), MatchAll: true,
		Place: restored.Place, Rung: memory.RungWorktree, Limit: 50}
	found := false
	for _, h := range searchHits(t, db, memory.LocalAccount, q) {
		found = found || h.ID == capped
		if ep, err := db.Episode(ctx, memory.LocalAccount, h.ID); err != nil || !ep.ExpiredAt.IsZero() {
			t.Errorf("the search found e%d, which is not active (%v)", h.ID, err)
		}
	}
	if !found {
		t.Fatalf("the restored episode e%d (%q) is not found by its words", capped, restored.Summary)
	}
	if _, err := db.Purge(ctx, memory.LocalAccount); err != nil {
		t.Fatal(err)
	}
	wantIndexedActive(t, db, "purged")
}

// A store from before migration 0021 kept inactive episodes in the index;
// the migration takes them out, and only them.
func TestEpisodeIndexMigratedToActive(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	seedEpisodes(t, db)
	if _, err := db.CapEpisodes(ctx, memory.LocalAccount, 2); err != nil {
		t.Fatal(err)
	}
	var migration string
	for _, m := range migrations() {
		if m.name == "episodes_fts_active" {
			migration = m.sql
		}
	}
	if migration == "" {
		t.Fatal("no migration named episodes_fts_active")
	}
	// Back to the index as the earlier code kept it: the capped episodes'
	// rows still in it.
	err := db.Update(ctx, func(tx *Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+episodeRowidSQL+`, e.summary, e.request, e.outcome, e.files, e.tools
			FROM episodes e`+episodePlaceJoin+` WHERE e.expired_at <> 0`)
		if err != nil {
			return err
		}
		type row struct {
			id            int64
			body, context string
		}
		var back []row
		for rows.Next() {
			var r row
			var summary, request, outcome, files, tools string
			if err := rows.Scan(&r.id, &summary, &request, &outcome, &files, &tools); err != nil {
				rows.Close()
				return err
			}
			r.body, r.context = episodeIndexText(summary, request, outcome, files, tools)
			back = append(back, r)
		}
		rows.Close()
		for _, r := range back {
			if _, err := tx.ExecContext(ctx, `INSERT INTO episodes_fts (rowid, body, context) VALUES (?, ?, ?)`,
				r.id, text.IndexText(r.body), text.IndexText(r.context)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if indexed, active, _ := indexedEpisodes(t, db); len(indexed) <= len(active) {
		t.Fatalf("the setup left %d rows for %d active episodes", len(indexed), len(active))
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, migration)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	wantIndexedActive(t, db, "migrated")
}
