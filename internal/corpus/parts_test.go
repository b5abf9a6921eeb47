package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/gitdir"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript/claudecode"
)

func TestMakeCheckoutsResolveAsGitPlaces(t *testing.T) {
	root := t.TempDir()
	cs, err := MakeCheckouts(root, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 7 {
		t.Fatalf("%d checkouts, want 7", len(cs))
	}
	worktrees, clones := map[string]bool{}, map[string]bool{}
	for i, c := range cs {
		p, err := gitdir.Resolve(c.Dir)
		if err != nil {
			t.Fatal(err)
		}
		wantProject, _ := filepath.EvalSymlinks(filepath.Join(c.Clone, ".git"))
		wantDir, _ := filepath.EvalSymlinks(c.Dir)
		if p.Worktree != wantDir || p.Project != wantProject {
			t.Errorf("checkout %d %+v resolves to %+v", i, c, p)
		}
		if want := "github.com/acme/" + filepath.Base(c.Clone); p.Repo != want {
			t.Errorf("checkout %d: repo %q, want %q", i, p.Repo, want)
		}
		if (i < 3) != (c.Dir == c.Clone) {
			t.Errorf("checkout %d: main checkout is %v, want %v", i, c.Dir == c.Clone, i < 3)
		}
		worktrees[p.Worktree], clones[p.Project] = true, true
	}
	if len(worktrees) != 7 || len(clones) != 3 {
		t.Errorf("%d worktrees in %d clones, want 7 in 3", len(worktrees), len(clones))
	}
	again, err := MakeCheckouts(root, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cs {
		if again[i] != cs[i] {
			t.Errorf("second call: checkout %d is %+v, was %+v", i, again[i], cs[i])
		}
	}
}

func TestMakeCheckoutsRejectsImpossibleLayouts(t *testing.T) {
	for _, tc := range []struct{ worktrees, clones int }{
		{0, 0}, {2, 3}, {5, 0}, {1, len(projects) + 1}, {2 + 2*len(branchWords) + 1, 2},
	} {
		if _, err := MakeCheckouts(t.TempDir(), tc.worktrees, tc.clones); err == nil {
			t.Errorf("%d worktrees of %d clones: no error", tc.worktrees, tc.clones)
		}
	}
}

// readParts parses every session file under dir the way the importer does.
func readParts(t *testing.T, dir string) []memory.Session {
	t.Helper()
	files, err := claudecode.Discover(filepath.Join(dir, "claude", "projects"))
	if err != nil {
		t.Fatal(err)
	}
	var out []memory.Session
	for _, f := range files {
		res, err := claudecode.ParseFile(t.Context(), f)
		if err != nil {
			t.Fatal(err)
		}
		if n := res.Stats.SkippedTotal(); n > 0 {
			t.Errorf("%s: %d lines skipped: %v", f, n, res.Stats.Reasons())
		}
		out = append(out, res.Sessions...)
	}
	return out
}

func TestGeneratePartsWritesExactlyTheParts(t *testing.T) {
	cs, err := MakeCheckouts(t.TempDir(), 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 4, 57, 1500} {
		dir := t.TempDir()
		st, err := GenerateParts(dir, PartsOptions{Parts: n, Seed: uint64(n), Checkouts: cs})
		if err != nil {
			t.Fatal(err)
		}
		sessions := readParts(t, dir)
		parts, turns := 0, 0
		in := map[string]int{}
		for _, s := range sessions {
			turns += len(s.Turns)
			for _, tr := range s.Turns {
				parts += len(tr.Parts)
				in[s.Cwd] += len(tr.Parts)
			}
		}
		if parts != n || st.Parts != n {
			t.Errorf("asked for %d parts: stats say %d, the importer reads %d", n, st.Parts, parts)
		}
		if len(sessions) != st.Sessions || turns != st.Turns {
			t.Errorf("%d parts: stats say %d sessions %d turns, the importer reads %d and %d", n, st.Sessions, st.Turns, len(sessions), turns)
		}
		for i, c := range cs {
			if in[c.Dir] != st.PartsIn[i] {
				t.Errorf("%d parts: checkout %d holds %d, stats say %d", n, i, in[c.Dir], st.PartsIn[i])
			}
		}
	}
}

func TestGeneratePartsLengths(t *testing.T) {
	cs, err := MakeCheckouts(t.TempDir(), 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := GenerateParts(dir, PartsOptions{Parts: 4000, Seed: 9, Checkouts: cs}); err != nil {
		t.Fatal(err)
	}
	count := map[memory.PartKind]int{}
	var results, chinese int
	for _, s := range readParts(t, dir) {
		for _, tr := range s.Turns {
			for i, p := range tr.Parts {
				count[p.Kind]++
				n := len(p.Text)
				switch {
				case i == 0 && p.Role == memory.RoleUser:
					if n > 400 || (n < 50 && !isChinese(p.Text)) {
						t.Errorf("request of %d bytes: %q", n, p.Text)
					}
					if isChinese(p.Text) {
						chinese++
					}
				case i == len(tr.Parts)-1 && p.Role == memory.RoleAssistant:
					if n < 100 || n > 1500 {
						t.Errorf("answer of %d bytes", n)
					}
				case p.Kind == memory.KindToolResult:
					results += n
				}
				if !utf8.ValidString(p.Text) {
					t.Errorf("invalid UTF-8 in a %s part", p.Kind)
				}
			}
		}
	}
	if count[memory.KindToolResult] == 0 || count[memory.KindToolCall] != count[memory.KindToolResult] {
		t.Fatalf("part kinds %v: want a result for every call", count)
	}
	if avg := results / count[memory.KindToolResult]; avg < 300 || avg > 2500 {
		t.Errorf("tool outputs average %d bytes, want everyday sizes", avg)
	}
	if chinese == 0 {
		t.Error("no request in Chinese")
	}
}

func TestGeneratePartsIsDeterministic(t *testing.T) {
	cs, err := MakeCheckouts(t.TempDir(), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := PartsOptions{Parts: 300, Seed: 4, Checkouts: cs}
	a, b := t.TempDir(), t.TempDir()
	if _, err := GenerateParts(a, o); err != nil {
		t.Fatal(err)
	}
	if _, err := GenerateParts(b, o); err != nil {
		t.Fatal(err)
	}
	da, db := digestTree(t, a), digestTree(t, b)
	if len(da) == 0 || len(da) != len(db) {
		t.Fatalf("runs wrote %d and %d files", len(da), len(db))
	}
	for name, h := range da {
		if db[name] != h {
			t.Errorf("%s differs between runs with the same seed", name)
		}
	}
}

func TestGeneratePartsRejectsBadOptions(t *testing.T) {
	cs := []Checkout{{Dir: "/w", Clone: "/w", Branch: "main"}}
	for _, o := range []PartsOptions{{Parts: 0, Checkouts: cs}, {Parts: -3, Checkouts: cs}, {Parts: 10}} {
		if _, err := GenerateParts(t.TempDir(), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three", 7, "one two"},
		{"one two three", 8, "one two"},
		{"one\ntwo three", 5, "one"},
		{"abcdefgh", 4, "abcd"},
		{"数据库迁移", 7, "数据"},
	} {
		if got := clip(tc.in, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestQueries(t *testing.T) {
	qs := Queries(1, 400)
	if len(qs) != 400 {
		t.Fatalf("%d queries, want 400", len(qs))
	}
	again := Queries(1, 400)
	kinds := map[string]int{}
	for i, q := range qs {
		if q != again[i] {
			t.Fatalf("query %d differs between calls: %q, %q", i, q.Text, again[i].Text)
		}
		if strings.TrimSpace(q.Text) == "" {
			t.Errorf("query %d (%s) is empty", i, q.Kind)
		}
		kinds[q.Kind]++
	}
	for _, k := range []string{QueryProse, QueryCode, QueryTicket, QueryMixed, QueryChinese, QueryShell, QueryPrompt, QueryMiss} {
		if kinds[k] == 0 {
			t.Errorf("no %s query in %v", k, kinds)
		}
	}
	if other := Queries(2, 400); other[0] == qs[0] && other[1] == qs[1] {
		t.Error("seed does not change the queries")
	}
}

// The miss queries are only misses if no generator writes their words.
func TestMissWordsAreNeverGenerated(t *testing.T) {
	cs, err := MakeCheckouts(t.TempDir(), 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := GenerateParts(dir, PartsOptions{Parts: 3000, Seed: 5, Checkouts: cs}); err != nil {
		t.Fatal(err)
	}
	small := t.TempDir()
	if _, err := Generate(small, Options{TargetBytes: 600_000, Seed: 5, MinFileBytes: 150_000, MaxFileBytes: 300_000}); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{dir, small} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			low := strings.ToLower(string(b))
			for _, w := range missWords {
				if strings.Contains(low, w) {
					return errors.New(path + " holds " + w)
				}
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
}

func TestEnsureBuiltBuildsOnce(t *testing.T) {
	cache := t.TempDir()
	calls := 0
	build := func(dir string) error {
		calls++
		return os.WriteFile(filepath.Join(dir, "made"), []byte("x"), 0o644)
	}
	for range 2 {
		dir, err := EnsureBuilt(cache, "thing-v1", build)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "made")); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Errorf("built %d times, want once", calls)
	}
	failing := func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, "half"), nil, 0o644); err != nil {
			return err
		}
		return errors.New("interrupted")
	}
	if _, err := EnsureBuilt(cache, "other-v1", failing); err == nil {
		t.Fatal("a failed build reported success")
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "thing-v1" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("cache holds %v after a failed build; want only thing-v1", names)
	}
}
