package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// openWAL opens path in WAL mode on one connection, through the gathering
// VFS or SQLite's own.
func openWAL(t testing.TB, path string, gathered bool, pragmas ...string) *sql.DB {
	t.Helper()
	if err := registerWALVFS(); err != nil {
		t.Fatal(err)
	}
	params := "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	if gathered {
		params = "vfs=" + walVFS + "&" + params
	}
	for _, p := range pragmas {
		params += "&_pragma=" + p
	}
	db, err := sql.Open("sqlite", dsn(path, params))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func count(t testing.TB, db *sql.DB, q string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func integrityOK(t testing.TB, db *sql.DB) {
	t.Helper()
	var res string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q, %v", res, err)
	}
}

// Each commit reaches the WAL file in one write, where SQLite asks for two
// per page; and every commit is readable at once by a connection that
// reads the file through SQLite's own VFS.
func TestWALCommitsGatheredAndVisible(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.db")
	w := openWAL(t, path, true)
	mustExec(t, w, `CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)`)
	mustExec(t, w, `CREATE INDEX t_body ON t (body)`)
	plain := openWAL(t, path, false)
	gathered := openWAL(t, path, true)

	const commits = 200
	asked, wrote := walWrites.Load(), walFileWrites.Load()
	for i := 1; i <= commits; i++ {
		mustExec(t, w, `INSERT INTO t (body) VALUES (?)`, fmt.Sprintf("row %d %s", i, strings.Repeat("x", i%50)))
		if n := count(t, plain, `SELECT count(*) FROM t`); n != i {
			t.Fatalf("after commit %d another connection sees %d rows", i, n)
		}
		if n := count(t, gathered, `SELECT count(*) FROM t WHERE body >= 'row'`); n != i {
			t.Fatalf("after commit %d a gathering reader sees %d rows", i, n)
		}
	}
	asked, wrote = walWrites.Load()-asked, walFileWrites.Load()-wrote
	// Two pages a commit at least (table, index), two writes each.
	if asked < 4*commits {
		t.Fatalf("SQLite asked for %d WAL writes in %d commits; the frame layout this relies on has changed", asked, commits)
	}
	if wrote > commits+commits/10 {
		t.Fatalf("%d writes reached the WAL for %d commits (%d asked for): not gathered", wrote, commits, asked)
	}
	integrityOK(t, plain)
}

// A transaction larger than the buffer, one that spills pages into the
// WAL before its commit and is then rolled back, and checkpoints that
// start the WAL over: the store stays whole and holds exactly what was
// committed, read through SQLite's own VFS after the writer closed.
func TestWALLargeRolledBackAndRestarted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.db")
	w := openWAL(t, path, true, "cache_size(20)", "wal_autocheckpoint(50)")
	mustExec(t, w, `CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)`)
	blob := strings.Repeat("0123456789abcdef", 4096) // 64 KiB, 16 pages
	mustExec(t, w, `BEGIN`)
	for range 40 {
		mustExec(t, w, `INSERT INTO t (body) VALUES (?)`, blob)
	}
	mustExec(t, w, `COMMIT`)
	mustExec(t, w, `BEGIN`)
	for range 40 {
		mustExec(t, w, `INSERT INTO t (body) VALUES (?)`, blob)
	}
	mustExec(t, w, `ROLLBACK`)
	for i := range 300 {
		mustExec(t, w, `INSERT INTO t (body) VALUES (?)`, fmt.Sprint("small ", i))
	}
	mustExec(t, w, `PRAGMA wal_checkpoint(TRUNCATE)`)
	for i := range 50 {
		mustExec(t, w, `INSERT INTO t (body) VALUES (?)`, fmt.Sprint("after ", i))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := openWAL(t, path, false)
	integrityOK(t, r)
	if n := count(t, r, `SELECT count(*) FROM t`); n != 390 {
		t.Fatalf("%d rows, want 40 + 300 + 50 (the rolled-back 40 gone)", n)
	}
	if n := count(t, r, `SELECT count(*) FROM t WHERE length(body) = 65536`); n != 40 {
		t.Fatalf("%d large rows, want 40", n)
	}
}

// A process killed in the middle of its writes loses nothing it was told
// was committed, and leaves a store whose integrity holds. The child is
// this test binary, re-run with walChildEnv set.
func TestWALKilledWriterKeepsEveryCommit(t *testing.T) {
	if path := os.Getenv(walChildEnv); path != "" {
		walChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "k.db")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestWALKilledWriterKeepsEveryCommit$")
	cmd.Env = append(os.Environ(), walChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var committed []int
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(committed) < 300 {
		id, err := strconv.Atoi(sc.Text())
		if err != nil {
			t.Fatalf("child said %q", sc.Text())
		}
		committed = append(committed, id)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if len(committed) < 300 {
		t.Fatalf("the child committed only %d rows before it stopped", len(committed))
	}
	r := openWAL(t, path, false)
	integrityOK(t, r)
	for _, id := range committed {
		if n := count(t, r, fmt.Sprintf(`SELECT count(*) FROM t WHERE id = %d`, id)); n != 1 {
			t.Fatalf("row %d was committed before the kill and is gone", id)
		}
	}
}

const walChildEnv = "CAIRN_WAL_CHILD_DB"

// walChild writes rows one transaction each until killed, printing each
// id once its COMMIT has returned.
func walChild(path string) {
	if err := registerWALVFS(); err != nil {
		panic(err)
	}
	db, err := sql.Open("sqlite", dsn(path, "vfs="+walVFS+"&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=wal_autocheckpoint(100)"))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)`); err != nil {
		panic(err)
	}
	for i := 1; ; i++ {
		res, err := db.ExecContext(ctx, `INSERT INTO t (body) VALUES (?)`, strings.Repeat("y", 100+i%3000))
		if err != nil {
			panic(err)
		}
		id, _ := res.LastInsertId()
		fmt.Println(id)
	}
}

// A random workload of small and large transactions, rollbacks (some
// spilling pages into the WAL first) and checkpoints of every mode, run
// through the gathering VFS and through SQLite's own, leaves the same
// rows in both, each store whole, and every commit visible at once to a
// reader on SQLite's own VFS.
func TestWALWriterMatchesSQLitesOwn(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			dir := t.TempDir()
			var dumps [2]string
			for i, gathered := range []bool{true, false} {
				dumps[i] = walWorkload(t, filepath.Join(dir, fmt.Sprint(i, ".db")), gathered, seed)
			}
			if dumps[0] != dumps[1] {
				t.Fatalf("the stores differ: gathered %d bytes of rows, plain %d", len(dumps[0]), len(dumps[1]))
			}
		})
	}
}

// walWorkload runs seed's workload on path and returns its rows.
func walWorkload(t *testing.T, path string, gathered bool, seed int64) string {
	w := openWAL(t, path, gathered, "cache_size(30)", "wal_autocheckpoint(200)")
	r := openWAL(t, path, false)
	mustExec(t, w, `CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, body BLOB)`)
	mustExec(t, w, `CREATE INDEX t_k ON t (k)`)
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	want := 0
	for step := range 300 {
		switch op := rng.IntN(20); {
		case op < 14: // a small commit
			mustExec(t, w, `INSERT INTO t (k, body) VALUES (?, ?)`, rng.IntN(1000), strings.Repeat("s", rng.IntN(3000)))
			want++
		case op < 16: // a large commit, past the buffer
			mustExec(t, w, `BEGIN`)
			n := 1 + rng.IntN(12)
			for range n {
				mustExec(t, w, `INSERT INTO t (k, body) VALUES (?, ?)`, rng.IntN(1000), strings.Repeat("L", 20000+rng.IntN(50000)))
			}
			mustExec(t, w, `COMMIT`)
			want += n
		case op < 18: // a rollback, often after the cache spilled
			mustExec(t, w, `BEGIN`)
			for range 1 + rng.IntN(30) {
				mustExec(t, w, `INSERT INTO t (k, body) VALUES (?, ?)`, rng.IntN(1000), strings.Repeat("R", rng.IntN(20000)))
			}
			mustExec(t, w, `UPDATE t SET k = k + 1 WHERE id % 3 = 0`)
			mustExec(t, w, `ROLLBACK`)
		case op < 19: // a rewrite of old rows
			mustExec(t, w, `UPDATE t SET body = body || 'u' WHERE id % 7 = ?`, rng.IntN(7))
		default:
			mode := []string{"PASSIVE", "FULL", "RESTART", "TRUNCATE"}[rng.IntN(4)]
			mustExec(t, w, `PRAGMA wal_checkpoint(`+mode+`)`)
		}
		if n := count(t, r, `SELECT count(*) FROM t`); n != want {
			t.Fatalf("step %d: a reader sees %d rows, %d committed", step, n, want)
		}
	}
	integrityOK(t, w)
	integrityOK(t, r)
	rows, err := r.Query(`SELECT id, k, body FROM t ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var sb strings.Builder
	for rows.Next() {
		var id, k int
		var body string
		if err := rows.Scan(&id, &k, &body); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "%d %d %s\n", id, k, body)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// Two writers that take turns, one of them starting the log over after
// each checkpoint, keep gathering: each takes its appends from where the
// log ends when it takes the write lock, not from the furthest point it
// wrote itself.
func TestWALWritersTakingTurnsStayGathered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "turns.db")
	a := openWAL(t, path, true, "wal_autocheckpoint(0)")
	b := openWAL(t, path, true, "wal_autocheckpoint(0)")
	mustExec(t, a, `CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)`)
	const rounds = 40
	wrote := walFileWrites.Load()
	for i := range rounds {
		for range 5 {
			mustExec(t, a, `INSERT INTO t (body) VALUES (?)`, strings.Repeat("a", 500))
		}
		// b starts the log over: a's next commit lands below where a
		// last wrote.
		mustExec(t, b, `PRAGMA wal_checkpoint(TRUNCATE)`)
		mustExec(t, b, `INSERT INTO t (body) VALUES (?)`, fmt.Sprint("b", i))
	}
	commits := rounds * 6
	w := walFileWrites.Load() - wrote
	t.Logf("%d writes reached the WAL for %d commits", w, commits)
	if w > int64(commits+commits/5) {
		t.Fatalf("%d writes reached the WAL for %d commits: a writer stopped gathering after another restarted the log", w, commits)
	}
	r := openWAL(t, path, false)
	integrityOK(t, r)
	if n := count(t, r, `SELECT count(*) FROM t`); n != commits {
		t.Fatalf("%d rows after %d one-row commits", n, commits)
	}
}
