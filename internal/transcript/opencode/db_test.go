package opencode

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

const realDB = "testdata/real/opencode.db"

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadDBMatchesExports: the database copy was taken after the four
// exports were written, from the same store, so reading it must give the
// very sessions ParseExport gives, oldest first.
func TestReadDBMatchesExports(t *testing.T) {
	res, err := ReadDB(context.Background(), realDB)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.SkippedTotal() != 0 {
		t.Errorf("skipped: %v", res.Stats.Skipped)
	}
	// 38 message rows and 85 part rows.
	if res.Stats.Lines != 123 {
		t.Errorf("records = %d, want 123", res.Stats.Lines)
	}
	byID := map[string]memory.Session{}
	for _, s := range res.Sessions {
		byID[s.ExternalID] = s
	}
	if len(res.Sessions) != len(realFixtures) || len(byID) != len(realFixtures) {
		t.Fatalf("sessions = %d, want %d", len(res.Sessions), len(realFixtures))
	}
	for _, fx := range realFixtures {
		want := parseFile(t, fx.file).Sessions[0]
		got, ok := byID[fx.id]
		if !ok {
			t.Errorf("%s missing from the db", fx.id)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: db and export differ:\n db    %+v\n export %+v", fx.id, got, want)
		}
	}
	for i := 1; i < len(res.Sessions); i++ {
		if res.Sessions[i].StartedAt.Before(res.Sessions[i-1].StartedAt) {
			t.Errorf("sessions not oldest first")
		}
	}
	if len(res.Files) != 1 || res.Files[0].Size == 0 {
		t.Errorf("files = %+v", res.Files)
	}
}

// TestReadDBLeavesTheFileAlone: the database is byte-identical after a
// read and no -wal, -shm or journal file appears beside it.
func TestReadDBLeavesTheFileAlone(t *testing.T) {
	before := fileHash(t, realDB)
	infoBefore, err := os.Stat(realDB)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDB(context.Background(), realDB); err != nil {
		t.Fatal(err)
	}
	if fileHash(t, realDB) != before {
		t.Fatal("ReadDB changed the database file")
	}
	infoAfter, _ := os.Stat(realDB)
	if !infoAfter.ModTime().Equal(infoBefore.ModTime()) {
		t.Error("ReadDB touched the database's modification time")
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(realDB + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s appeared next to the database", suffix)
		}
	}
}

// openWriter opens a copy of the fixture the way OpenCode does (WAL).
func openWriter(t *testing.T, path string) *sql.DB {
	t.Helper()
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	if _, err := w.Exec("PRAGMA wal_autocheckpoint=0"); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestReadDBSeesALiveWAL: rows OpenCode wrote but has not yet
// checkpointed live only in the -wal file; a read must see them, and must
// not write the database or the WAL.
func TestReadDBSeesALiveWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.db")
	copyFile(t, realDB, path)
	w := openWriter(t, path)
	defer w.Close()
	// A new user message in the subagent session, held in the WAL.
	_, err := w.Exec(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES
		('msg_zzlive', 'ses_dd462d815ffeG6IOC57Ownb99s', 1796028060000, 1796028060000,
		 '{"role":"user","time":{"created":1796028060000}}')`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Exec(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES
		('prt_zzlive', 'msg_zzlive', 'ses_dd462d815ffeG6IOC57Ownb99s', 1796028060000, 1796028060000,
		 '{"type":"text","text":"a prompt still in the WAL"}')`)
	if err != nil {
		t.Fatal(err)
	}
	dbHash, walHash := fileHash(t, path), fileHash(t, path+"-wal")

	res, err := ReadDB(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, s := range res.Sessions {
		if s.ExternalID == "ses_dd462d815ffeG6IOC57Ownb99s" {
			last := s.Turns[len(s.Turns)-1]
			found = len(s.Turns) == 2 && last.Request == "a prompt still in the WAL" && last.Status == memory.TurnCutShort
		}
	}
	if !found {
		t.Error("the row in the WAL was not read")
	}
	if len(res.Files) != 2 {
		t.Errorf("files = %+v, want the db and its -wal", res.Files)
	}
	if fileHash(t, path) != dbHash || fileHash(t, path+"-wal") != walHash {
		t.Error("ReadDB wrote to the database or its WAL")
	}
}

// TestReadDBWALModeWithoutSidecars: a database in WAL mode whose -wal and
// -shm were removed at the writer's clean close (the usual state when
// OpenCode is not running) opens without creating either.
func TestReadDBWALModeWithoutSidecars(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.db")
	copyFile(t, realDB, path)
	w := openWriter(t, path)
	if _, err := w.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	before := fileHash(t, path)
	res, err := ReadDB(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != len(realFixtures) {
		t.Errorf("sessions = %d", len(res.Sessions))
	}
	if fileHash(t, path) != before {
		t.Error("ReadDB changed the database")
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("ReadDB created a %s file", suffix)
		}
	}
}

func TestReadDBErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadDB(context.Background(), filepath.Join(dir, "none.db"))
	if memory.ErrorCode(err) != memory.CodeNotFound {
		t.Errorf("missing file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !errors.Is(err, os.ErrNotExist) {
		t.Error("ReadDB created the missing database")
	}
	// A SQLite file that is not OpenCode's.
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", "file:"+other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE notes (x TEXT)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := ReadDB(context.Background(), other); memory.ErrorCode(err) != memory.CodeInvalid {
		t.Errorf("foreign schema: %v", err)
	}
	// Not a database at all.
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte("not sqlite at all, just text that is long enough"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDB(context.Background(), junk); err == nil {
		t.Error("junk file: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadDB(ctx, realDB); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestReadDBBadRows: rows whose data is not JSON, or names an unknown
// message, are counted and skipped; the rest still reads.
func TestReadDBBadRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.db")
	copyFile(t, realDB, path)
	w := openWriter(t, path)
	for _, q := range []string{
		`UPDATE message SET data = 'not json' WHERE id = 'msg_22b9d2807001vOnGHlwmZfH6dP'`,
		`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES
		 ('prt_orphan', 'msg_gone', 'ses_dd462d815ffeG6IOC57Ownb99s', 1, 1, '{"type":"text","text":"x"}')`,
		`UPDATE part SET data = '{"type":"hologram"}' WHERE id = (SELECT min(id) FROM part WHERE session_id = 'ses_dd46453a6ffeXulBS18MWvOTuX')`,
	} {
		if _, err := w.Exec(q); err != nil {
			w.Close()
			t.Fatal(err)
		}
	}
	w.Close()
	res, err := ReadDB(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"invalid message":             1,
		"part of an unknown message":  2, // the orphan and the one text part of the broken message
		"unknown part type: hologram": 1,
	}
	if !reflect.DeepEqual(res.Stats.Skipped, want) {
		t.Errorf("skipped = %v, want %v", res.Stats.Skipped, want)
	}
	if len(res.Sessions) != len(realFixtures) {
		t.Errorf("sessions = %d", len(res.Sessions))
	}
}
