package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Writes nudge the background checkpointer, which copies them into the
// database file itself: a connection that reads only that file (immutable,
// the WAL ignored) finds them while the writer is still open.
func TestWritesAreCheckpointedInTheBackground(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const writes = 3 * checkpointEvery
	for i := range writes {
		if err := db.SetSetting(ctx, memory.LocalAccount, fmt.Sprint("k", i), "v"); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for db.ckpt.runs.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no background checkpoint after %d writes", writes)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Let any checkpoint in flight finish, writer still open (closing it
	// would checkpoint everything itself).
	db.wmu.Lock()
	db.stopCheckpoints()
	db.wmu.Unlock()
	file, err := sql.Open("sqlite", dsn(path, "immutable=1"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var n int
	if err := file.QueryRow(`SELECT count(*) FROM settings WHERE key LIKE 'k%'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n < checkpointEvery {
		t.Fatalf("the database file holds %d of the first %d writes after a background checkpoint", n, checkpointEvery)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}
