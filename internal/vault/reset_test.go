package vault

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestReset(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	write(t, v, SummaryFile, "summary")
	write(t, v, "skills/a.md", "a")
	if _, err := v.Baseline(ctx, "pass"); err != nil {
		t.Fatal(err)
	}
	if s, _, _ := v.Summary(ctx); s != "summary" {
		t.Fatalf("summary = %q", s)
	}
	if err := v.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if files, err := v.List(ctx, ""); err != nil || len(files) != 0 {
		t.Errorf("files after reset = %v, %v", files, err)
	}
	if log, err := v.Log(ctx); err != nil || len(log) != 0 {
		t.Errorf("log after reset = %v, %v", log, err)
	}
	if s, changed, err := v.Summary(ctx); s != "" || !changed || err != nil {
		t.Errorf("summary after reset = %q, %v, %v; want empty and changed", s, changed, err)
	}
	for _, d := range layout {
		if fi, err := os.Stat(filepath.Join(v.Root(), d)); err != nil || !fi.IsDir() {
			t.Errorf("layout %s missing after reset: %v", d, err)
		}
	}
	write(t, v, "MEMORY.md", "fresh")
	if got := changes(t, v); got != `added MEMORY.md ""->"fresh"` {
		t.Errorf("diff after reset = %s", got)
	}
	if _, err := v.Baseline(ctx, "after reset"); err != nil {
		t.Fatal(err)
	}
	if log, _ := v.Log(ctx); len(log) != 1 {
		t.Errorf("log after a new baseline = %v", log)
	}
}

func TestResetRefusesLinks(t *testing.T) {
	tests := []struct {
		name string
		// swap replaces part of the path after Open and returns the folder
		// that now holds the files.
		swap func(t *testing.T, tmp, data, root string) string
	}{
		{"root became a link", func(t *testing.T, tmp, data, root string) string {
			moved := filepath.Join(tmp, "moved")
			mustRename(t, root, moved)
			mustLink(t, moved, root)
			return moved
		}},
		{"data dir became a link", func(t *testing.T, tmp, data, root string) string {
			moved := filepath.Join(tmp, "moved-data")
			mustRename(t, data, moved)
			mustLink(t, moved, data)
			return filepath.Join(moved, "vault")
		}},
		{"grandparent became a link", func(t *testing.T, tmp, data, root string) string {
			top := filepath.Join(tmp, "home")
			moved := filepath.Join(tmp, "moved-home")
			mustRename(t, top, moved)
			mustLink(t, moved, top)
			return filepath.Join(moved, "data", "vault")
		}},
		{"root replaced by another folder", func(t *testing.T, tmp, data, root string) string {
			moved := filepath.Join(tmp, "moved")
			mustRename(t, root, moved)
			if err := os.Mkdir(root, 0o700); err != nil {
				t.Fatal(err)
			}
			return moved
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := realTemp(t)
			data := filepath.Join(tmp, "home", "data")
			root := filepath.Join(data, "vault")
			v, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			write(t, v, "MEMORY.md", "precious")
			holder := tt.swap(t, tmp, data, root)
			err = v.Reset(context.Background())
			if memory.ErrorCode(err) != memory.CodeInvalid {
				t.Fatalf("Reset = %v; want a refusal", err)
			}
			got, err := os.ReadFile(filepath.Join(holder, "MEMORY.md"))
			if err != nil || string(got) != "precious" {
				t.Errorf("files touched by a refused reset: %q, %v", got, err)
			}
			if _, err := os.Stat(filepath.Join(holder, ".git")); err != nil {
				t.Errorf("history touched by a refused reset: %v", err)
			}
		})
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
