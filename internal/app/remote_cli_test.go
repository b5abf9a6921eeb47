package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/cli"
	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
)

// runEnv runs cairn in this process with the given CAIRN_* variables
// only (the test process's own are not seen).
func runEnv(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if strings.HasPrefix(k, "CAIRN_") {
			return ""
		}
		return os.Getenv(k)
	}
	var out, errOut bytes.Buffer
	f := newFactory(strings.NewReader(""), &out, &errOut, getenv)
	root := cli.NewRootCmd(f)
	root.SetArgs(args)
	err := cli.Classify(root.ExecuteContext(context.Background()))
	if err != nil {
		report(f, err)
	}
	return cli.ExitCode(err), out.String(), errOut.String()
}

// mustRun runs a command that has to succeed.
func mustRun(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	code, out, errOut := runEnv(t, env, args...)
	if code != 0 {
		t.Fatalf("cairn %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// serveGateway runs the real `cairn serve` on home's store, on a free
// port of 127.0.0.1, and returns its URL.
func serveGateway(t *testing.T, home string) string {
	t.Helper()
	cmd := cairnCmd(t, home, "serve", "--addr", "127.0.0.1:0", "--work-every", "3600")
	var env []string
	for _, kv := range cmd.Env {
		if !strings.HasPrefix(kv, "CAIRN_URL=") && !strings.HasPrefix(kv, "CAIRN_TOKEN=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("cairn serve did not start: %v\n%s", err, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	_, rest, ok := strings.Cut(line, " on ")
	if !ok {
		t.Fatalf("cairn serve said %q", line)
	}
	return strings.Fields(rest)[0]
}

// remoteSetup is a gateway serving home's store, and the environments of
// a client in remote mode (its own, empty home) and of a local user of
// the gateway's store.
type remoteSetup struct {
	home, clientHome string
	remote, local    map[string]string
	repo             string
}

func newRemoteSetup(t *testing.T) remoteSetup {
	t.Helper()
	home, clientHome := t.TempDir(), t.TempDir()
	local := map[string]string{"CAIRN_HOME": home}
	// The local account's token: the gateway serves the same memory the
	// local CLI reads, so each remote answer can be compared with the
	// local one.
	tok := strings.TrimSpace(mustRun(t, local, "token", "create", "--account", "local", "--name", "laptop"))
	if !strings.HasPrefix(tok, "cairn_") {
		t.Fatalf("token create printed %q", tok)
	}
	url := serveGateway(t, home)
	remote := map[string]string{"CAIRN_HOME": clientHome, "CAIRN_URL": url, "CAIRN_TOKEN": tok}
	return remoteSetup{home: home, clientHome: clientHome, remote: remote, local: local, repo: gitRepo(t)}
}

// noLocalStore fails when the client's home got a store.
func (s remoteSetup) noLocalStore(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(s.clientHome, "cairn.db")); err == nil {
		t.Fatalf("remote mode created a local store in %s", s.clientHome)
	}
}

// same runs a command remotely and locally and compares the outputs,
// after norm (nil: byte for byte).
func (s remoteSetup) same(t *testing.T, norm func(t *testing.T, out string) any, args ...string) string {
	t.Helper()
	r := mustRun(t, s.remote, args...)
	l := mustRun(t, s.local, args...)
	if norm == nil {
		if r != l {
			t.Errorf("cairn %s: remote and local differ\nremote:\n%s\nlocal:\n%s", strings.Join(args, " "), r, l)
		}
		return r
	}
	if rn, ln := norm(t, r), norm(t, l); !reflect.DeepEqual(rn, ln) {
		t.Errorf("cairn %s: remote and local differ\nremote:\n%s\nlocal:\n%s", strings.Join(args, " "), r, l)
	}
	return r
}

// withoutKeys decodes JSON and drops the keys that differ by run (the
// time a call took, the receipt a recall wrote).
func withoutKeys(keys ...string) func(t *testing.T, out string) any {
	return func(t *testing.T, out string) any {
		t.Helper()
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		var strip func(any)
		strip = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				for _, k := range keys {
					delete(x, k)
				}
				for _, e := range x {
					strip(e)
				}
			case []any:
				for _, e := range x {
					strip(e)
				}
			}
		}
		strip(v)
		return v
	}
}

// TestRemoteCLIMatchesLocal drives every memory command in remote mode
// against a real `cairn serve` and checks that each answer is what the
// same command gives locally on the gateway's store, and that the client
// never creates a store of its own.
func TestRemoteCLIMatchesLocal(t *testing.T) {
	s := newRemoteSetup(t)
	repo := s.repo

	// Writes go through the gateway.
	transcript := filepath.Join(t.TempDir(), "11111111-2222-4333-8444-555555555555.jsonl")
	writeLines(t, transcript, claudeLines("11111111-2222-4333-8444-555555555555", repo, time.Now().Add(-2*time.Hour), []ccTurn{
		{User: "the billing worker must run on the quokka queue, never the default one", Answer: "Understood: billing runs on the quokka queue."},
		{User: "and the nightly export goes to bucket shelfalpha", Answer: "Noted, the nightly export writes to shelfalpha."},
	}))
	out := mustRun(t, s.remote, "import", "--claude-code="+transcript, "--json")
	var imp cli.ImportOutput
	if err := json.Unmarshal([]byte(out), &imp); err != nil || imp.Totals.Sessions != 1 || imp.Totals.Added != 2 || imp.Totals.Failed != 0 {
		t.Fatalf("remote import: %v %s", err, out)
	}
	if imp.Sources[0].Source != transcript {
		t.Errorf("the report names %q, want the local file %q", imp.Sources[0].Source, transcript)
	}
	// Uploading the same file again adds nothing.
	out = mustRun(t, s.remote, "import", "--claude-code="+transcript, "--json")
	if err := json.Unmarshal([]byte(out), &imp); err != nil || imp.Totals.Unchanged != 1 || imp.Totals.Added != 0 {
		t.Fatalf("second remote import: %v %s", err, out)
	}
	var note struct{ Statement memory.Statement }
	if err := json.Unmarshal([]byte(mustRun(t, s.remote, "remember", "deploys wait for the pangolin canary", "--cwd", repo, "--json")), &note); err != nil {
		t.Fatal(err)
	}
	var fact struct{ Statement memory.Statement }
	if err := json.Unmarshal([]byte(mustRun(t, s.remote, "fact", "assert", "production", "deploy_target", "Render Oregon", "--cwd", repo,
		"--valid-at", "2026-01-02", "--json")), &fact); err != nil {
		t.Fatal(err)
	}
	if note.Statement.ID == 0 || fact.Statement.ID == 0 {
		t.Fatalf("remote writes returned no rows: %+v %+v", note, fact)
	}
	// The session is placed as a local import places it: the client
	// resolved the checkout, which the gateway cannot see.
	want, err := gitdir.Resolve(repo)
	if err != nil {
		t.Fatal(err)
	}
	var sess []memory.SessionSummary
	if err := json.Unmarshal([]byte(s.same(t, nil, "sessions", "--json")), &sess); err != nil || len(sess) != 1 {
		t.Fatalf("sessions: %v %+v", err, sess)
	}
	if sess[0].Place != want {
		t.Errorf("uploaded session placed at %+v, want %+v", sess[0].Place, want)
	}
	id := func(n int64) string { return strconv.FormatInt(n, 10) }

	s.same(t, nil, "show", sess[0].ExternalID, "--json")
	s.same(t, nil, "show", id(sess[0].ID), "--parts")
	s.same(t, nil, "notes", "--json")
	s.same(t, nil, "notes", "--all", "--episodes")
	s.same(t, nil, "fact", "query", "--cwd", repo, "--json")
	s.same(t, nil, "fact", "query", "--cwd", repo)
	s.same(t, nil, "fact", "timeline", "--json")
	s.same(t, nil, "fact", "timeline", "--clock", "system", "--json")
	s.same(t, nil, "fact", "asof", "2026-02-01", "--json")
	s.same(t, nil, "fact", "export")
	s.same(t, withoutKeys("took_ns"), "search", "quokka queue billing", "--cwd", repo, "--json")
	s.same(t, withoutKeys("took_ns"), "search", "shelfalpha", "--cwd", repo, "--place", "everywhere", "--json")
	rec := s.same(t, withoutKeys("receipt", "took_ns"), "recall", "which queue does billing use", "--cwd", repo, "--json")
	if !strings.Contains(rec, "quokka") {
		t.Errorf("remote recall misses the transcript: %s", rec)
	}
	s.same(t, withoutKeys("receipt", "took_ns"), "recall", "--standing", "--cwd", repo, "--json")
	s.same(t, nil, "receipts", "--json")

	// Changes made remotely are the store's: each is read back locally.
	for _, step := range []struct {
		args  []string
		check func(memory.Statement) bool
	}{
		{[]string{"pin", id(note.Statement.ID)}, func(st memory.Statement) bool { return st.Pinned }},
		{[]string{"unpin", id(note.Statement.ID)}, func(st memory.Statement) bool { return !st.Pinned }},
		{[]string{"forget", id(note.Statement.ID)}, func(st memory.Statement) bool { return !st.Current() }},
		{[]string{"undo", id(note.Statement.ID)}, func(st memory.Statement) bool { return st.Current() }},
		{[]string{"fact", "retract", id(fact.Statement.ID)}, func(st memory.Statement) bool { return !st.Current() }},
		{[]string{"fact", "reopen", id(fact.Statement.ID)}, func(st memory.Statement) bool { return st.Current() }},
	} {
		var got memory.Statement
		if err := json.Unmarshal([]byte(mustRun(t, s.remote, append(step.args, "--json")...)), &got); err != nil {
			t.Fatal(err)
		}
		s.same(t, nil, "notes", "--all", "--json")
		localRow := exportedRow(t, mustRun(t, s.local, "fact", "export"), got.ID)
		if !step.check(got) || !step.check(localRow) {
			t.Errorf("cairn %s: remote answered %+v, the store holds %+v", strings.Join(step.args, " "), got, localRow)
		}
	}

	// The memory files: the gateway keeps the account's folder apart from
	// this machine's, so the local side reads a copy of it, then each
	// read is compared.
	gwVault, localVault := filepath.Join(s.home, "accounts", "1", "vault"), filepath.Join(s.home, "vault")
	if err := os.MkdirAll(filepath.Join(gwVault, "skills"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gwVault, "skills", "deploy.md"), []byte("# Deploy\n\nWait for the pangolin canary.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(localVault); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(localVault, os.DirFS(gwVault)); err != nil {
		t.Fatal(err)
	}
	ls := s.same(t, nil, "vault", "ls")
	if !strings.Contains(ls, "skills/deploy.md") {
		t.Errorf("vault ls: %s", ls)
	}
	s.same(t, nil, "vault", "ls", "skills", "--json")
	s.same(t, nil, "vault", "cat", "skills/deploy.md")
	s.same(t, nil, "vault", "grep", "PANGOLIN", "--json")
	s.same(t, withoutKeys("root"), "vault", "status", "--json")
	s.noLocalStore(t)
}

// exportedRow finds a statement in `cairn fact export`'s lines.
func exportedRow(t *testing.T, out string, id int64) memory.Statement {
	t.Helper()
	for line := range strings.Lines(out) {
		var st memory.Statement
		if err := json.Unmarshal([]byte(line), &st); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		if st.ID == id {
			return st
		}
	}
	t.Fatalf("statement %d not in the export", id)
	return memory.Statement{}
}

// TestRemoteCLIRefusals: a wrong token and a gateway that is down fail at
// once with a message naming the cause, commands that work on a local
// store say they do not run remotely, and no local store is created.
func TestRemoteCLIRefusals(t *testing.T) {
	s := newRemoteSetup(t)
	wrong := map[string]string{"CAIRN_HOME": s.clientHome, "CAIRN_URL": s.remote["CAIRN_URL"], "CAIRN_TOKEN": "cairn_" + strings.Repeat("b", 52)}
	code, _, errOut := runEnv(t, wrong, "notes")
	if code != 5 || !strings.Contains(errOut, "refused CAIRN_TOKEN") {
		t.Errorf("wrong token: exit %d, %q", code, errOut)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now
	downEnv := map[string]string{"CAIRN_HOME": s.clientHome, "CAIRN_URL": down, "CAIRN_TOKEN": s.remote["CAIRN_TOKEN"]}
	transcript := filepath.Join(t.TempDir(), "s1.jsonl")
	writeLines(t, transcript, claudeLines("s1", s.repo, time.Now(), []ccTurn{{User: "hello", Answer: "hi"}}))
	for _, args := range [][]string{{"notes"}, {"search", "billing"}, {"remember", "x"}, {"fact", "query"}, {"import", "--claude-code=" + transcript}} {
		code, _, errOut := runEnv(t, downEnv, args...)
		if code != 6 || !strings.Contains(errOut, "did not answer") || !strings.Contains(errOut, ln.Addr().String()) {
			t.Errorf("cairn %s with the gateway down: exit %d, %q", strings.Join(args, " "), code, errOut)
		}
	}
	code, out, _ := runEnv(t, downEnv, "doctor", "--json")
	var dr cli.DoctorReport
	if err := json.Unmarshal([]byte(out), &dr); err != nil || code == 0 || dr.OK || dr.Gateway == nil || !strings.Contains(strings.Join(dr.Problems, " "), "did not answer") {
		t.Errorf("doctor with the gateway down: exit %d, %s", code, out)
	}
	for _, args := range [][]string{{"maintain"}, {"consolidate"}, {"reset", "--yes"}, {"config", "set", "capture", "off"},
		{"preset", "private"}, {"serve", "--addr", "127.0.0.1:0"}, {"account", "create", "team"}, {"token", "list", "--account", "local"},
		{"ui", "--no-open"}, {"tui"}} {
		code, _, errOut := runEnv(t, s.remote, args...)
		if code != 2 || !strings.Contains(errOut, "CAIRN_URL") {
			t.Errorf("cairn %s in remote mode: exit %d, %q", strings.Join(args, " "), code, errOut)
		}
	}
	code, _, errOut = runEnv(t, s.remote, "purge", "--yes")
	if code != 5 || !strings.Contains(errOut, "operator token") {
		t.Errorf("purge with an agent token: exit %d, %q", code, errOut)
	}
	// Half the pair is a mistake, said as such.
	code, _, errOut = runEnv(t, map[string]string{"CAIRN_HOME": s.clientHome, "CAIRN_URL": s.remote["CAIRN_URL"]}, "notes")
	if code != 2 || !strings.Contains(errOut, "both CAIRN_URL and CAIRN_TOKEN") {
		t.Errorf("CAIRN_URL alone: exit %d, %q", code, errOut)
	}
	s.noLocalStore(t)

	// doctor reports the gateway, its account and token, not a local store.
	out = mustRun(t, s.remote, "doctor", "--json")
	if err := json.Unmarshal([]byte(out), &dr); err != nil {
		t.Fatal(err)
	}
	g := dr.Gateway
	if !dr.OK || g == nil || g.URL != s.remote["CAIRN_URL"] || g.AccountName != "local" || g.Account != memory.LocalAccount ||
		g.Token.Name != "laptop" || g.Token.Operator || g.Store.Integrity != "ok" || dr.Database != "" {
		t.Errorf("doctor in remote mode: %s", out)
	}
	text := mustRun(t, s.remote, "doctor")
	for _, w := range []string{s.remote["CAIRN_URL"], "local (id 1)", "laptop (agent)"} {
		if !strings.Contains(text, w) {
			t.Errorf("doctor's text lacks %q:\n%s", w, text)
		}
	}
	s.noLocalStore(t)
}

// TestRemoteImportMatchesLocalImport: a Claude Code transcript and an
// OpenCode export uploaded through a gateway give the sessions, turns and
// places a local import of the same files gives.
func TestRemoteImportMatchesLocalImport(t *testing.T) {
	s := newRemoteSetup(t)
	other := map[string]string{"CAIRN_HOME": t.TempDir()}
	transcript := filepath.Join(t.TempDir(), "aaaaaaaa-2222-4333-8444-555555555555.jsonl")
	writeLines(t, transcript, claudeLines("aaaaaaaa-2222-4333-8444-555555555555", filepath.Join(s.repo, "web"), time.Now().Add(-time.Hour), []ccTurn{
		{User: "use pnpm in this repo, token ghp_" + strings.Repeat("x1Y2", 9), Answer: "Switched the scripts to pnpm.", ToolOutput: "done in 2.1s"},
	}))
	export, err := filepath.Abs(filepath.Join("..", "transcript", "opencode", "testdata", "real", "tools-abort.export.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"import", "--claude-code=" + transcript}, {"import", "--opencode=" + export}} {
		mustRun(t, s.remote, args...)
		mustRun(t, other, args...)
	}
	norm := withoutKeys("id", "session_id", "turn_id", "source")
	r, l := mustRun(t, s.local, "sessions", "--json"), mustRun(t, other, "sessions", "--json")
	if !reflect.DeepEqual(norm(t, r), norm(t, l)) {
		t.Errorf("sessions differ\nthrough the gateway:\n%s\nlocal import:\n%s", r, l)
	}
	for _, ref := range []string{"aaaaaaaa-2222-4333-8444-555555555555", "ses_dd46453a6ffeXulBS18MWvOTuX"} {
		r, l := mustRun(t, s.remote, "show", ref, "--json"), mustRun(t, other, "show", ref, "--json")
		if !reflect.DeepEqual(norm(t, r), norm(t, l)) {
			t.Errorf("show %s differs\nthrough the gateway:\n%s\nlocal import:\n%s", ref, r, l)
		}
		if strings.Contains(r, "x1Y2x1Y2") {
			t.Errorf("show %s: the token reached the gateway's store unredacted", ref)
		}
	}
	s.noLocalStore(t)
}
