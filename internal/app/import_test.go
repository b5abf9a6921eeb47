package app

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/sqlite"
	"github.com/cairn-memory/cairn/internal/text"
)

func importJSON(t *testing.T, args ...string) cli.ImportOutput {
	t.Helper()
	code, out, errOut := run(t, append([]string{"import", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("import exit %d\n%s\n%s", code, out, errOut)
	}
	var o cli.ImportOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return o
}

func sessionTurns(t *testing.T) (turns, parts int) {
	t.Helper()
	code, out, errOut := run(t, "sessions", "--json", "-n", "0")
	if code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	var list []struct {
		TurnCount int `json:"turn_count"`
		PartCount int `json:"part_count"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		turns += s.TurnCount
		parts += s.PartCount
	}
	return
}

func TestImportIsIdempotentAndIncremental(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), "proj", "11111111-2222-4333-8444-555555555555.jsonl")
	start := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	turns := []ccTurn{{User: "one", Answer: "a1"}, {User: "two", Answer: "a2"}, {User: "three", Answer: "a3"}}
	writeLines(t, path, claudeLines("11111111-2222-4333-8444-555555555555", "/w", start, turns))

	o := importJSON(t, "--claude-code="+filepath.Dir(path))
	if o.Totals.Added != 3 || o.Totals.Sessions != 1 {
		t.Fatalf("first import %+v", o.Totals)
	}
	o = importJSON(t, "--claude-code="+filepath.Dir(path))
	if o.Totals.Unchanged != 1 || o.Totals.Added != 0 {
		t.Fatalf("second import of an unchanged file %+v", o.Totals)
	}
	o = importJSON(t, "--force", path)
	if o.Totals.Added != 0 || o.Totals.Updated != 0 {
		t.Fatalf("forced re-read of the same content changed rows: %+v", o.Totals)
	}

	turns = append(turns, ccTurn{User: "four", Answer: "a4"}, ccTurn{User: "five", Answer: "a5"})
	writeLines(t, path, claudeLines("11111111-2222-4333-8444-555555555555", "/w", start, turns))
	o = importJSON(t, path)
	if o.Totals.Added != 2 || o.Totals.Updated != 0 {
		t.Fatalf("grown file: %+v", o.Totals)
	}
	if n, _ := sessionTurns(t); n != 5 {
		t.Fatalf("store holds %d turns, want 5", n)
	}
}

func TestHalfWrittenLastLineWaitsForTheNextRun(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), "proj", "s.jsonl")
	lines := claudeLines("s", "/w", time.Now(), []ccTurn{{User: "first", Answer: "done"}, {User: "second", Answer: "also done"}})
	full := strings.Join(lines, "\n") + "\n"
	last := lines[len(lines)-1]
	cut := len(full) - len(last)/2 - 1
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(full[:cut]), 0o644); err != nil {
		t.Fatal(err)
	}
	o := importJSON(t, path)
	if !o.Sources[0].Pending {
		t.Fatalf("half-written line not reported pending: %+v", o.Sources[0])
	}
	if o.Sources[0].SkippedTotal() != 0 {
		t.Fatalf("a half-written line is not a parse error: %+v", o.Sources[0].Skipped)
	}
	if err := os.WriteFile(path, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	o = importJSON(t, path)
	if o.Sources[0].Pending {
		t.Fatal("still pending after the line was finished")
	}
	code, out, _ := run(t, "show", "s", "--json")
	if code != 0 || !strings.Contains(out, "also done") {
		t.Fatalf("the finished turn was not imported: %s", out)
	}
	var s struct{ Turns []struct{ Status string } }
	_ = json.Unmarshal([]byte(out), &s)
	if len(s.Turns) != 2 || s.Turns[1].Status != "completed" {
		t.Fatalf("turns %+v", s.Turns)
	}
}

func TestBadLinesAreCountedNotFatal(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), "proj", "b.jsonl")
	good := claudeLines("b", "/w", time.Now(), []ccTurn{{User: "keep me", Answer: "kept"}})
	huge := `{"type":"user","uuid":"x","message":{"role":"user","content":"` + strings.Repeat("z", 200<<10) + `"`
	lines := append([]string{"not json at all", `{"type":"mystery-record","uuid":"m"}`, huge, `{"type":"user"}`}, good...)
	writeLines(t, path, lines)
	o := importJSON(t, "--claude-code="+path)
	r := o.Sources[0]
	if r.Error != "" || r.Added != 1 || r.SkippedTotal() < 3 {
		t.Fatalf("report %+v", r)
	}
	for reason := range r.Skipped {
		if strings.Contains(reason, "zzzz") || strings.Contains(reason, "keep me") {
			t.Fatalf("a skip reason leaks transcript text: %q", reason)
		}
	}
}

func TestTurnInProgressIsCompletedLater(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), "proj", "p.jsonl")
	lines := claudeLines("p", "/w", time.Now(), []ccTurn{{User: "q1", Answer: "a1"}, {User: "q2", Answer: "a2"}})
	writeLines(t, path, lines[:len(lines)-1]) // the answer to q2 is not written yet
	if o := importJSON(t, path); o.Totals.Added != 2 {
		t.Fatalf("%+v", o.Totals)
	}
	writeLines(t, path, lines)
	o := importJSON(t, path)
	if o.Totals.Added != 0 || o.Totals.Updated != 1 {
		t.Fatalf("completion of the last turn: %+v", o.Totals)
	}
}

// secrets are shaped like real credentials but are not: assembled here so
// that no scanner mistakes this file for a leak.
func testSecrets() []string {
	return []string{
		"AKIA" + "QX7Z4MNB2KLPYNQW",
		"ghp_" + strings.Repeat("aB3d", 9),
		"sk-ant-api03-" + strings.Repeat("Xy9_", 20) + "AA",
		"xoxb-" + "123456789012-1234567890123-" + strings.Repeat("abcd", 6),
		"postgres://deploy:" + "S3cr3tPassw0rd!x" + "@db.internal:5432/app",
	}
}

func TestNoSecretReachesTheStoreFiles(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CAIRN_HOME", home)
	secrets := testSecrets()
	var turns []ccTurn
	for i, s := range secrets {
		turns = append(turns, ccTurn{
			User:       "please check the config, the key is " + s,
			Answer:     "I found " + s + " in the environment;\n" + s,
			ToolOutput: "export TOKEN=1\\n" + s + "\nexit 0",
		})
		_ = i
	}
	path := filepath.Join(t.TempDir(), "proj", "sec.jsonl")
	writeLines(t, path, claudeLines("sec", "/w", time.Now(), turns))
	// Hold a connection open so the importer's close cannot fold the WAL
	// away: both files must be clean.
	holder, err := sqlite.Open(context.Background(), filepath.Join(home, "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.Health(context.Background()); err != nil {
		t.Fatal(err)
	}
	o := importJSON(t, path)
	if o.Sources[0].Redactions == 0 {
		t.Fatal("nothing was redacted")
	}
	files, _ := filepath.Glob(filepath.Join(home, "cairn.db*"))
	if len(files) < 2 {
		t.Fatalf("expected the database and its WAL, found %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			// The index holds lowercased tokens: look for both spellings.
			if bytes.Contains(b, []byte(s)) || bytes.Contains(b, []byte(strings.ToLower(s))) {
				t.Errorf("secret %.8s… found in %s", s, filepath.Base(f))
			}
		}
	}
	// FTS5 stores terms prefix-compressed, so a byte search can miss a
	// token; ask the index itself for every secret-looking token.
	var toks []string
	for _, s := range secrets {
		for _, tok := range text.Tokens(s) {
			if len(tok) >= 10 && strings.ContainsAny(tok, "0123456789") {
				toks = append(toks, tok)
			}
		}
	}
	if len(toks) == 0 {
		t.Fatal("no secret tokens to look for")
	}
	st, err := holder.TermStats(context.Background(), memory.LocalAccount, memory.L0, toks)
	if err != nil {
		t.Fatal(err)
	}
	for tok, n := range st.DF {
		if n > 0 {
			t.Errorf("a token of a secret (%.6s…) is in the full-text index", tok)
		}
	}
	if st.Docs == 0 {
		t.Fatal("nothing was indexed: the check above proves nothing")
	}
}

func TestKilledImportsLeaveAConsistentStore(t *testing.T) {
	if testing.Short() {
		t.Skip("kills real processes: skipped in -short")
	}
	corpus := t.TempDir()
	syntheticCorpus(t, corpus, 24, 40)

	// Reference: one clean import.
	ref := t.TempDir()
	if out, err := cairnCmd(t, ref, "import", "--json", corpus).CombinedOutput(); err != nil {
		t.Fatalf("reference import: %v\n%s", err, out)
	}
	want, _ := storeCounts(t, ref)

	home := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 12 {
		cmd := cairnCmd(t, home, "import", "--json", corpus)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if _, integrity := storeCounts(t, home); integrity != "ok" {
			t.Fatalf("after kill %d: integrity %q", i, integrity)
		}
	}
	if out, err := cairnCmd(t, home, "import", "--json", corpus).CombinedOutput(); err != nil {
		t.Fatalf("final import: %v\n%s", err, out)
	}
	got, integrity := storeCounts(t, home)
	if integrity != "ok" {
		t.Fatalf("integrity %q", integrity)
	}
	for _, table := range []string{"sessions", "turns", "parts"} {
		if got[table] != want[table] {
			t.Errorf("%s: %d after kills and re-import, %d in a clean import", table, got[table], want[table])
		}
	}
}

func TestConcurrentImportersNeverSeeLocks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes: skipped in -short")
	}
	corpus := t.TempDir()
	syntheticCorpus(t, corpus, 16, 30)
	ref := t.TempDir()
	if out, err := cairnCmd(t, ref, "import", corpus).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want, _ := storeCounts(t, ref)

	home := t.TempDir()
	const procs = 4
	var wg sync.WaitGroup
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Every process imports the whole corpus, so they race for the
			// same sessions as well as for the lock.
			outs[i], errs[i] = cairnCmd(t, home, "import", "--force", corpus).CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range procs {
		if errs[i] != nil || bytes.Contains(outs[i], []byte("locked")) || bytes.Contains(outs[i], []byte("busy")) {
			t.Errorf("process %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	got, integrity := storeCounts(t, home)
	if integrity != "ok" {
		t.Fatal(integrity)
	}
	for _, table := range []string{"sessions", "turns", "parts"} {
		if got[table] != want[table] {
			t.Errorf("%s: %d with %d concurrent importers, %d alone", table, got[table], procs, want[table])
		}
	}
}

func TestMixedDirectoryIsSortedByFormat(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	dir := t.TempDir()
	copyFile(t, "../transcript/codex/testdata/codemie_turn-1_SYNTHETIC.jsonl", filepath.Join(dir, "codex", "rollout-2026-05-12T10-00-00-a1b2c3d4-e5f6-7890-abcd-ef1234567890.jsonl"))
	writeLines(t, filepath.Join(dir, "claude", "-w", "c.jsonl"), claudeLines("c", "/w", time.Now(), []ccTurn{{User: "hi", Answer: "hello"}}))
	o := importJSON(t, dir)
	byProvider := map[string]int{}
	for _, s := range o.Sources {
		byProvider[string(s.Provider)] += s.Sessions
		if s.SkippedTotal() > 0 {
			t.Errorf("%s read by the wrong importer: %+v", s.Source, s.Skipped)
		}
	}
	if byProvider["codex"] != 1 || byProvider["claude-code"] != 1 {
		t.Fatalf("sessions by client %v", byProvider)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
