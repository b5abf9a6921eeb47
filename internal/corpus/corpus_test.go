package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/redact"
	"github.com/cairn-memory/cairn/internal/transcript"
	"github.com/cairn-memory/cairn/internal/transcript/claudecode"
	"github.com/cairn-memory/cairn/internal/transcript/codex"
)

// small keeps test corpora quick to write and read while still holding
// several sessions per client, subagents, long lines and secrets.
func small(seed uint64, target int64) Options {
	return Options{TargetBytes: target, Seed: seed, MinFileBytes: 150_000, MaxFileBytes: 600_000, MinTurns: 5, MaxTurns: 20, SubagentShare: 0.5}
}

// digestTree maps every file under dir to a hash of its bytes.
func digestTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		sum := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGenerateIsDeterministic(t *testing.T) {
	opts := small(7, 1_200_000)
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	sa, err := Generate(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Generate(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sa != sb {
		t.Fatalf("stats differ:\n%+v\n%+v", sa, sb)
	}
	da, db := digestTree(t, a), digestTree(t, b)
	if len(da) != sa.Files {
		t.Fatalf("%d files on disk, stats say %d", len(da), sa.Files)
	}
	for name, h := range da {
		if db[name] != h {
			t.Errorf("%s differs between runs with the same seed", name)
		}
	}
	if len(db) != len(da) {
		t.Errorf("runs wrote %d and %d files", len(da), len(db))
	}

	opts.Seed = 8
	if _, err := Generate(c, opts); err != nil {
		t.Fatal(err)
	}
	same := 0
	dc := digestTree(t, c)
	for name, h := range dc {
		if da[name] == h {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d files identical across different seeds", same)
	}
}

func TestGenerateMeetsTheTarget(t *testing.T) {
	for _, target := range []int64{1, 900_000, 2_500_000} {
		opts := small(3, target)
		st, err := Generate(t.TempDir(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if st.Bytes < target || st.Claude.Bytes < target/2 || st.Codex.Bytes < target-target/2 {
			t.Errorf("target %d: got %d bytes (claude %d, codex %d)", target, st.Bytes, st.Claude.Bytes, st.Codex.Bytes)
		}
		// At most one file of overshoot per tree, plus its subagents.
		if over := st.Bytes - target; over > 2*opts.MaxFileBytes+2*1_000_000 {
			t.Errorf("target %d: overshot by %d", target, over)
		}
	}
}

// tally is what the real importers read from one tree.
type tally struct {
	files, sessions, subagents, turns, lines, skipped int
	bytes                                             int64
	redactions                                        int
	skipReasons                                       []string
}

func (ty *tally) add(t *testing.T, res transcript.Result) {
	t.Helper()
	ty.files += len(res.Files)
	for _, f := range res.Files {
		ty.bytes += f.Size
	}
	ty.lines += res.Stats.Lines
	ty.skipped += res.Stats.SkippedTotal()
	ty.skipReasons = append(ty.skipReasons, res.Stats.Reasons()...)
	if res.Stats.Pending {
		t.Errorf("a file ends in a half-written line: %v", res.Files)
	}
	red := redact.Default()
	for _, s := range res.Sessions {
		ty.sessions++
		if s.Subagent {
			ty.subagents++
		}
		ty.turns += len(s.Turns)
		for _, tr := range s.Turns {
			for _, p := range tr.Parts {
				_, n := red.Redact(p.Text)
				ty.redactions += n
			}
		}
	}
}

func check(t *testing.T, client string, got tally, want Tree) {
	t.Helper()
	if got.skipped != 0 {
		t.Errorf("%s: %d lines skipped: %v", client, got.skipped, got.skipReasons)
	}
	if got.files != want.Files || got.bytes != want.Bytes || got.lines != want.Lines {
		t.Errorf("%s: read %d files, %d bytes, %d lines; generated %d, %d, %d", client, got.files, got.bytes, got.lines, want.Files, want.Bytes, want.Lines)
	}
	if got.sessions != want.Sessions || got.subagents != want.Subagents || got.turns != want.Turns {
		t.Errorf("%s: read %d sessions (%d subagents), %d turns; generated %d (%d), %d", client, got.sessions, got.subagents, got.turns, want.Sessions, want.Subagents, want.Turns)
	}
}

func TestImportersReadEveryLine(t *testing.T) {
	dir := t.TempDir()
	st, err := Generate(dir, small(11, 3_000_000))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	var cc tally
	srcs, err := claudecode.Discover(filepath.Join(dir, "claude", "projects"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range srcs {
		res, err := claudecode.ParseFile(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		cc.add(t, res)
	}
	check(t, "claude code", cc, st.Claude)

	var cx tally
	srcs, err = codex.Discover(filepath.Join(dir, "codex"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range srcs {
		res, err := codex.ParseFile(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		cx.add(t, res)
	}
	check(t, "codex", cx, st.Codex)
	t.Logf("generated %+v; redactions %d", st, cc.redactions+cx.redactions)

	if st.Claude.Subagents == 0 {
		t.Error("no subagent files generated")
	}
	if st.LongLines < 2 {
		t.Errorf("%d lines over 64 KiB, want at least one per client", st.LongLines)
	}
	// Every planted secret must reach the stored text and be caught there.
	if st.Secrets < 10 || cc.redactions+cx.redactions < st.Secrets {
		t.Errorf("planted %d secrets, redaction found %d", st.Secrets, cc.redactions+cx.redactions)
	}
}

func TestGeneratedTextIsVaried(t *testing.T) {
	dir := t.TempDir()
	if _, err := Generate(dir, small(5, 1_000_000)); err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		all.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	text := all.String()
	for _, want := range []string{
		// secrets
		"AKIA", "ghp_", "-----BEGIN RSA PRIVATE KEY-----",
		// patches and Chinese
		"diff --git", "*** Begin Patch", "的",
		// Claude Code
		`"type":"tool_use"`, `"type":"tool_result"`, `"isSidechain":true`,
		// Codex
		`"type":"function_call"`, `"type":"task_complete"`, `"type":"turn_context"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("corpus lacks %q", want)
		}
	}
}

func TestEncodeCwd(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/home/dev/src/payments-api", "-home-dev-src-payments-api"},
		{"/Users/sam/work/a.b_c", "-Users-sam-work-a-b-c"},
		{"", ""},
	} {
		if got := encodeCwd(tc.in); got != tc.want {
			t.Errorf("encodeCwd(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOptionsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"no target", Options{}},
		{"negative target", Options{TargetBytes: -1}},
		{"file bounds reversed", Options{TargetBytes: 1, MinFileBytes: 10, MaxFileBytes: 5}},
		{"turn bounds reversed", Options{TargetBytes: 1, MinTurns: 9, MaxTurns: 2}},
	} {
		if _, err := Generate(t.TempDir(), tc.opts); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
