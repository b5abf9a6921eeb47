package vault

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// changes renders a diff as "kind path before->after" lines.
func changes(t *testing.T, v *Vault) string {
	t.Helper()
	cs, err := v.Diff(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, c := range cs {
		lines = append(lines, fmt.Sprintf("%s %s %q->%q", c.Kind, c.Path, c.Before, c.After))
	}
	return strings.Join(lines, "\n")
}

func TestDiffWithoutBaselineIsAllAdded(t *testing.T) {
	v := newVault(t)
	write(t, v, "skills/b.md", "b")
	write(t, v, "MEMORY.md", "m")
	want := "added MEMORY.md \"\"->\"m\"\nadded skills/b.md \"\"->\"b\""
	if got := changes(t, v); got != want {
		t.Errorf("diff =\n%s\nwant\n%s", got, want)
	}
}

func TestDiffKinds(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	write(t, v, "MEMORY.md", "old handbook")
	write(t, v, "rollout_summaries/gone.md", "recap")
	write(t, v, "skills/hand.md", "by cairn")
	write(t, v, "skills/touched.md", "same")
	if _, err := v.Baseline(ctx, "first pass"); err != nil {
		t.Fatal(err)
	}
	if got := changes(t, v); got != "" {
		t.Fatalf("diff right after a baseline = %q; want empty", got)
	}

	write(t, v, "MEMORY.md", "new handbook")
	write(t, v, "extensions/ad_hoc/notes/n1.md", "remember this")
	// A person, with ordinary tools rather than the Vault.
	root := v.Root()
	if err := os.Remove(filepath.Join(root, "rollout_summaries", "gone.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "skills", "hand.md"), []byte("by a person"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "skills", "touched.md"), later, later); err != nil {
		t.Fatal(err)
	}

	want := strings.Join([]string{
		`modified MEMORY.md "old handbook"->"new handbook"`,
		`added extensions/ad_hoc/notes/n1.md ""->"remember this"`,
		`deleted rollout_summaries/gone.md "recap"->""`,
		`modified skills/hand.md "by cairn"->"by a person"`,
	}, "\n")
	if got := changes(t, v); got != want {
		t.Errorf("diff =\n%s\nwant\n%s", got, want)
	}
	cs, _ := v.Diff(ctx)
	for _, c := range cs {
		if (c.Kind == Added && c.Before != nil) || (c.Kind == Deleted && c.After != nil) {
			t.Errorf("%s %s: Before %v After %v", c.Kind, c.Path, c.Before, c.After)
		}
	}

	if _, err := v.Baseline(ctx, "second pass"); err != nil {
		t.Fatal(err)
	}
	if got := changes(t, v); got != "" {
		t.Errorf("diff after the second baseline = %q; want empty", got)
	}
}

func TestBaselineLog(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	if log, err := v.Log(ctx); err != nil || len(log) != 0 {
		t.Fatalf("log before any baseline = %v, %v", log, err)
	}
	steps := []struct {
		name    string
		change  func()
		commits int
	}{
		{"first baseline of an empty vault", func() {}, 1},
		{"nothing changed", func() {}, 1},
		{"a file added", func() { write(t, v, "MEMORY.md", "a") }, 2},
		{"same again", func() {}, 2},
		{"rewritten with the same bytes", func() { write(t, v, "MEMORY.md", "a") }, 2},
		{"a file edited", func() { write(t, v, "MEMORY.md", "b") }, 3},
		{"a file deleted", func() {
			if err := v.Remove(ctx, "MEMORY.md"); err != nil {
				t.Fatal(err)
			}
		}, 4},
	}
	var last string
	for i, s := range steps {
		s.change()
		hash, err := v.Baseline(ctx, fmt.Sprintf("pass %d", i))
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		log, err := v.Log(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != s.commits {
			t.Fatalf("%s: %d commits; want %d", s.name, len(log), s.commits)
		}
		if log[0].Hash != hash {
			t.Errorf("%s: Baseline returned %s, log head is %s", s.name, hash, log[0].Hash)
		}
		if grew := hash != last; grew != (i == 0 || s.commits > steps[i-1].commits) {
			t.Errorf("%s: new hash = %v", s.name, grew)
		}
		last = hash
	}
	log, _ := v.Log(ctx)
	if log[0].Message != "pass 6" || log[len(log)-1].Message != "pass 0" || log[0].When.IsZero() {
		t.Errorf("log = %+v", log)
	}
}

// The history is ordinary git: another reader sees the files in the
// baseline, and the index matches so the worktree is clean.
func TestBaselineIsPlainGit(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	write(t, v, "MEMORY.md", "m")
	write(t, v, "skills/a/b.md", "b")
	write(t, v, "skills/a.md", "a") // sorts between "a" folder and others in git order
	if err := os.Symlink("/etc/passwd", filepath.Join(v.Root(), "link.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Baseline(ctx, ""); err != nil {
		t.Fatal(err)
	}
	repo, err := git.PlainOpen(v.Root())
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if c.Message != "cairn baseline\n" {
		t.Errorf("default message = %q", c.Message)
	}
	tree, err := c.Tree()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	if err := tree.Files().ForEach(func(f *object.File) error {
		names = append(names, f.Name)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != "MEMORY.md skills/a.md skills/a/b.md" {
		t.Errorf("committed files = %s (links must be skipped)", got)
	}
	if err := os.Remove(filepath.Join(v.Root(), "link.md")); err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	st, err := wt.Status()
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsClean() {
		t.Errorf("worktree not clean after a baseline:\n%s", st)
	}
}
