package vault

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestWriteReadList(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	files := map[string]string{
		"MEMORY.md":                        "# handbook\n",
		"skills/go/testing.md":             "table tests",
		"rollout_summaries/2025-01-a.md":   "recap a",
		"extensions/ad_hoc/notes/n1.md":    "note",
		"a.md":                             "",
		"deep/er/than/the/layout/file.txt": strings.Repeat("x", 70000),
	}
	for p, data := range files {
		write(t, v, p, data)
	}
	for p, data := range files {
		got, err := v.Read(ctx, p)
		if err != nil || string(got) != data {
			t.Errorf("Read(%s) = %d bytes, %v; want %d bytes", p, len(got), err, len(data))
		}
	}
	// The same content read with ./ and doubled slashes.
	if got, err := v.Read(ctx, "./skills//go/testing.md"); err != nil || string(got) != "table tests" {
		t.Errorf("Read with ./ and //: %q, %v", got, err)
	}
	list, err := v.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range list {
		paths = append(paths, f.Path)
		if f.Size != int64(len(files[f.Path])) || f.ModTime.IsZero() {
			t.Errorf("%s: size %d, mtime %v", f.Path, f.Size, f.ModTime)
		}
	}
	want := "MEMORY.md a.md deep/er/than/the/layout/file.txt extensions/ad_hoc/notes/n1.md rollout_summaries/2025-01-a.md skills/go/testing.md"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("List = %s\nwant   %s", got, want)
	}
	sub, err := v.List(ctx, "skills/")
	if err != nil || len(sub) != 1 || sub[0].Path != "skills/go/testing.md" {
		t.Errorf("List(skills/) = %v, %v", sub, err)
	}
	if _, err := v.List(ctx, "nope"); memory.ErrorCode(err) != memory.CodeNotFound {
		t.Errorf("List(nope): %v; want not_found", err)
	}
	if _, err := v.List(ctx, "a.md"); memory.ErrorCode(err) != memory.CodeInvalid {
		t.Errorf("List(a.md): %v; want invalid", err)
	}
}

func TestWriteIsAtomicAndPrivate(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	write(t, v, "MEMORY.md", "one")
	write(t, v, "MEMORY.md", "two, longer")
	got, err := v.Read(ctx, "MEMORY.md")
	if err != nil || string(got) != "two, longer" {
		t.Fatalf("Read = %q, %v", got, err)
	}
	entries, err := os.ReadDir(v.Root())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	fi, err := os.Stat(filepath.Join(v.Root(), "MEMORY.md"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if err := v.Write(ctx, "skills", []byte("x")); memory.ErrorCode(err) != memory.CodeInvalid {
		t.Errorf("Write over a directory: %v; want invalid", err)
	}
	if err := v.Write(ctx, "MEMORY.md/x", []byte("x")); memory.ErrorCode(err) != memory.CodeInvalid {
		t.Errorf("Write below a file: %v; want invalid", err)
	}
}

func TestRemove(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	write(t, v, "skills/x.md", "x")
	if err := v.Remove(ctx, "skills/x.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Read(ctx, "skills/x.md"); memory.ErrorCode(err) != memory.CodeNotFound || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read after Remove: %v; want not_found", err)
	}
	if err := v.Remove(ctx, "skills/x.md"); memory.ErrorCode(err) != memory.CodeNotFound {
		t.Errorf("second Remove: %v; want not_found", err)
	}
	if err := v.Remove(ctx, "skills"); memory.ErrorCode(err) != memory.CodeInvalid {
		t.Errorf("Remove(skills): %v; want invalid", err)
	}
	if fi, err := os.Stat(filepath.Join(v.Root(), "skills")); err != nil || !fi.IsDir() {
		t.Errorf("layout folder gone: %v", err)
	}
}

func TestListSkipsLinksGitAndLitter(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	outside := filepath.Join(filepath.Dir(v.Root()), "outside")
	if err := os.MkdirAll(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	write(t, v, "MEMORY.md", "m")
	for _, l := range []struct{ target, name string }{
		{outside, "dirlink"},
		{filepath.Join(outside, "secret.md"), "filelink.md"},
	} {
		if err := os.Symlink(l.target, filepath.Join(v.Root(), l.name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{".DS_Store", tmpPrefix + "dead", "skills/.git/config"} {
		p := filepath.Join(v.Root(), filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	list, err := v.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Path != "MEMORY.md" {
		t.Errorf("List = %v; want only MEMORY.md", list)
	}
}
