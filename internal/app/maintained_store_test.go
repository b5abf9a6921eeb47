package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/corpus"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/sqlite"
)

// maintainedStoreVersion names the cached maintained stores; bump it when
// what the maintenance pass does to a store changes.
const maintainedStoreVersion = 1

// ensureMaintainedStore returns a cached copy of the recall store st
// after one maintenance pass; see maintainedCopy.
func ensureMaintainedStore(b *testing.B, st recallStore, label string) recallStore {
	b.Helper()
	out := st
	out.dir = maintainedCopy(b, st.dir, fmt.Sprintf("recall-maintained-%s-%d-", label, st.Statements), st.End.Add(time.Hour))
	return out
}

// ensureMaintainedSearchStore is ensureMaintainedStore for a search store.
func ensureMaintainedSearchStore(b *testing.B, st searchStore, label string) searchStore {
	b.Helper()
	_, end, err := checkpointAndSpan(filepath.Join(st.dir, "cairn.db"))
	if err != nil {
		b.Fatal(err)
	}
	out := st
	out.dir = maintainedCopy(b, st.dir, fmt.Sprintf("search-maintained-%s-", label), end.Add(time.Hour))
	return out
}

// maintainedCopy returns a cached copy of the store in dir after one
// maintenance pass (engine.Maintain) at the time now, which the callers
// put one hour after the store's last session: due candidates promoted,
// the profile built, and the episode cap applied. A store in use is
// maintained by the background rounds that its hooks start; the generated
// stores never were, so without this pass every project kept every
// episode it ever had, and the hook benchmark's first hook started the
// pass (minutes at 1M parts) inside its timed loop. The copy is named
// prefix, maintainedStoreVersion and dir's own name; older versions of
// the same prefix are removed.
//
// CAIRN_BENCH_UNMAINTAINED=1 reads the store as generated instead, for a
// figure comparable with those measured before this pass.
func maintainedCopy(b *testing.B, dir, prefix string, now time.Time) string {
	b.Helper()
	if os.Getenv("CAIRN_BENCH_UNMAINTAINED") == "1" {
		b.Logf("CAIRN_BENCH_UNMAINTAINED=1: reading %s as generated, never maintained", dir)
		return dir
	}
	cache, err := corpus.DefaultCacheDir()
	if err != nil {
		b.Fatal(err)
	}
	name := fmt.Sprintf("%sv%d-%s", prefix, maintainedStoreVersion, filepath.Base(dir))
	out, err := corpus.EnsureBuilt(cache, name, func(tmp string) error {
		return buildMaintainedStore(b, tmp, dir, now)
	})
	if err != nil {
		b.Fatal(err)
	}
	removeOlderStores(cache, prefix, out)
	var rep engine.MaintainReport
	readStoreJSON(b, filepath.Join(out, "maintained.json"), &rep)
	b.Logf("maintained copy %s: %d promoted, %d merged, %d episodes capped, in %s",
		out, rep.Promoted, rep.Merged, rep.Capped, rep.Took.Round(time.Second))
	return out
}

func buildMaintainedStore(b *testing.B, dir, src string, now time.Time) error {
	path := filepath.Join(dir, "cairn.db")
	if err := copyStore(filepath.Join(src, "cairn.db"), path); err != nil {
		return err
	}
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	db.Now = func() time.Time { return now }
	eng := engine.New(db, engine.Options{Config: config.Default(), Resolve: gitdir.Resolve, Now: func() time.Time { return now }})
	rep, err := eng.Maintain(ctx)
	if cerr := eng.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("maintain %s: %w", path, err)
	}
	if _, _, err := checkpointAndSpan(path); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "maintained.json"), append(raw, '\n'), 0o644); err != nil {
		return err
	}
	// The store's own description travels with it.
	raw, err = os.ReadFile(filepath.Join(src, "store.json"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "store.json"), raw, 0o644)
}
