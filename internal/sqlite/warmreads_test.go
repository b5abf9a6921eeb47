package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// queryOnly tells which connection answered: readers are opened
// query_only, the writer is not.
func queryOnly(t *testing.T, ctx context.Context, db *DB) bool {
	t.Helper()
	var v int
	if err := db.read.QueryRowContext(ctx, `PRAGMA query_only`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v == 1
}

func TestPinnedReadsRunOnTheWriter(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	if !queryOnly(t, ctx, db) {
		t.Fatal("an unpinned read ran on the writer")
	}
	pctx, release := db.PinReads(ctx)
	defer release() // a failing test still gives the writer back for Close
	if queryOnly(t, pctx, db) {
		t.Fatal("a pinned read ran on the read pool")
	}
	// A write made with the pinned context does not wait on the lock the
	// pin holds, and the pinned reads see it.
	id, err := db.SaveReceipt(pctx, 1, memory.Receipt{Provider: memory.ProviderClaudeCode, SessionRef: "s", Kind: "request",
		Text: "block", Items: []memory.ReceiptItem{}})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := db.Receipts(pctx, 1, memory.ProviderClaudeCode, "s", 5)
	if err != nil || len(rs) != 1 || rs[0].ID != id {
		t.Fatalf("pinned read after a pinned write: %+v, %v", rs, err)
	}
	// Nested pins are the outer one; its release is a no-op.
	inner, innerRelease := db.PinReads(pctx)
	innerRelease()
	if queryOnly(t, inner, db) {
		t.Fatal("a nested release gave the writer back")
	}
	// Another goroutine's write waits for the release, then lands.
	done := make(chan error, 1)
	go func() {
		_, err := db.SaveReceipt(ctx, 1, memory.Receipt{Provider: memory.ProviderClaudeCode, SessionRef: "s", Kind: "request",
			Text: "later", Items: []memory.ReceiptItem{}})
		done <- err
	}()
	release()
	release() // twice is harmless
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !queryOnly(t, pctx, db) {
		t.Fatal("a released context still reads on the writer")
	}
	if rs, err := db.Receipts(ctx, 1, memory.ProviderClaudeCode, "s", 5); err != nil || len(rs) != 2 {
		t.Fatalf("after the release: %d receipts, %v", len(rs), err)
	}
}

// A pinned run stops at its next read once its context ends.
func TestPinnedReadsStopWhenTheContextEnds(t *testing.T) {
	db := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	pctx, release := db.PinReads(ctx)
	defer release()
	if _, err := db.Receipts(pctx, 1, memory.ProviderClaudeCode, "s", 5); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := db.Receipts(pctx, 1, memory.ProviderClaudeCode, "s", 5); err == nil {
		t.Fatal("a pinned read ran after its context ended")
	}
	var v int
	if err := db.read.QueryRowContext(pctx, `SELECT 1`).Scan(&v); err == nil {
		t.Fatal("a pinned row read ran after its context ended")
	}
}

func TestPinNeverWaitsForABusyWriter(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	held := make(chan struct{})
	finish := make(chan struct{})
	go func() {
		_ = db.Update(ctx, func(tx *Tx) error {
			close(held)
			<-finish
			return nil
		})
	}()
	<-held
	defer close(finish)
	pctx, release := db.PinReads(ctx)
	defer release()
	if !queryOnly(t, pctx, db) {
		t.Fatal("a pin taken while a write held the writer read on it")
	}
}

// The point of a pin: a run of reads after this process's own write finds
// its pages in the writer's cache, where the read pool starts over.
func TestPinnedReadsKeepTheirCacheAcrossWrites(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	saveReceipts(t, db, "s", 300)
	// readsAfterWrite reads every receipt, writes one, and counts the file
	// reads of reading them all again.
	readsAfterWrite := func(ctx context.Context) int64 {
		if _, err := db.Receipts(ctx, 1, memory.ProviderClaudeCode, "s", 1000); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SaveReceipt(ctx, 1, memory.Receipt{Provider: memory.ProviderClaudeCode, SessionRef: "t",
			Kind: "request", Text: "x", Items: []memory.ReceiptItem{}}); err != nil {
			t.Fatal(err)
		}
		before := fileReads.Load()
		if _, err := db.Receipts(ctx, 1, memory.ProviderClaudeCode, "s", 1000); err != nil {
			t.Fatal(err)
		}
		return fileReads.Load() - before
	}
	cold := readsAfterWrite(ctx)
	pctx, release := db.PinReads(ctx)
	defer release()
	readsAfterWrite(pctx) // fills the writer's cache
	warm := readsAfterWrite(pctx)
	release()
	t.Logf("file reads after a write: %d unpinned, %d pinned", cold, warm)
	if cold < 50 || warm*10 > cold {
		t.Fatalf("reading 300 receipts after a write read %d pages from the file pinned, %d unpinned", warm, cold)
	}
}

// The writer maps the store: pages it has never read come from the map,
// not a pread each (writerMapBytes).
func TestPinnedReadsMapTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	saveReceipts(t, db, "s", 300)
	// Closing checkpoints the WAL into the file, which then holds every page.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	coldReads := func(ctx context.Context) int64 {
		before := fileReads.Load()
		got, err := db.Receipts(ctx, 1, memory.ProviderClaudeCode, "s", 1000)
		if err != nil || len(got) != 300 {
			t.Fatalf("read %d receipts: %v", len(got), err)
		}
		return fileReads.Load() - before
	}
	unpinned := coldReads(ctx)
	pctx, release := db.PinReads(ctx)
	defer release()
	pinned := coldReads(pctx)
	t.Logf("file reads of 300 receipts never read before: %d by a reader, %d by the writer", unpinned, pinned)
	if unpinned < 50 || pinned*10 > unpinned {
		t.Fatalf("the writer read %d pages from the file where a reader read %d: is the store mapped?", pinned, unpinned)
	}
}

// Another process's writes reach a mapped writer: rows it adds and copies
// into a grown file, and a file it shrinks with VACUUM, are read through
// the map as they are after each change.
func TestMappedWriterSeesAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	ctx := context.Background()
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	count := func(session string) int {
		pctx, release := a.PinReads(ctx)
		defer release()
		if !a.pinned(pctx) {
			t.Fatal("the writer was not lent for the reads")
		}
		got, err := a.Receipts(pctx, 1, memory.ProviderClaudeCode, session, 10000)
		if err != nil {
			t.Fatal(err)
		}
		return len(got)
	}
	size := func() int64 {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	saveReceipts(t, a, "s", 200)
	if n := count("s"); n != 200 {
		t.Fatalf("read %d of 200 receipts", n)
	}
	small := size()
	// b grows the file well past what a mapped: its rows are copied into
	// the store by a checkpoint.
	saveReceipts(t, b, "t", 2000)
	if _, err := b.write.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	grown := size()
	if grown < 4*small {
		t.Fatalf("the store grew from %d to %d bytes only", small, grown)
	}
	if n := count("t"); n != 2000 {
		t.Fatalf("read %d of the other process's 2000 receipts", n)
	}
	// b deletes them and shrinks the file under a's map.
	if _, err := b.write.ExecContext(ctx, `DELETE FROM receipts WHERE session_ref = 't'`); err != nil {
		t.Fatal(err)
	}
	if _, err := b.write.ExecContext(ctx, `VACUUM`); err != nil {
		t.Fatal(err)
	}
	if _, err := b.write.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	if shrunk := size(); shrunk*2 > grown {
		t.Fatalf("VACUUM left the store at %d of %d bytes", shrunk, grown)
	}
	if n, m := count("t"), count("s"); n != 0 || m != 200 {
		t.Fatalf("after the other process shrank the store: %d and %d receipts, want 0 and 200", n, m)
	}
}

// saveReceipts writes n receipts of about 1.2 KB each for session.
func saveReceipts(t *testing.T, db *DB, session string, n int) {
	t.Helper()
	text := strings.Repeat("a recalled line of some length ", 40)
	for i := range n {
		if _, err := db.SaveReceipt(context.Background(), 1, memory.Receipt{Provider: memory.ProviderClaudeCode, SessionRef: session,
			Kind: "request", Text: fmt.Sprintf("%d %s", i, text), Items: []memory.ReceiptItem{}}); err != nil {
			t.Fatal(err)
		}
	}
}
