package vault

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

func TestSummaryCache(t *testing.T) {
	ctx := context.Background()
	v := newVault(t)
	path := filepath.Join(v.Root(), SummaryFile)
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	setTime := func(at time.Time) {
		t.Helper()
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	// handEdit rewrites the file in place (same inode), as an editor
	// saving over it might.
	handEdit := func(data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name    string
		act     func()
		want    string
		changed bool
	}{
		{"absent, first call", func() {}, "", true},
		{"absent again", func() {}, "", false},
		{"written", func() { write(t, v, SummaryFile, "AAAA"); setTime(t0) }, "AAAA", true},
		{"unchanged", func() {}, "AAAA", false},
		{"unchanged, byte-identical again", func() {}, "AAAA", false},
		// Same size, same mtime, same inode: the cache must not re-read,
		// which proves the second call is served from memory.
		{"in-place edit hidden from stat", func() { handEdit("BBBB"); setTime(t0) }, "AAAA", false},
		{"same size, new mtime", func() { handEdit("CCCC"); setTime(t0.Add(time.Second)) }, "CCCC", true},
		{"touched only", func() { setTime(t0.Add(2 * time.Second)) }, "CCCC", false},
		// Write replaces the file: a new inode is seen even within one tick.
		{"same size, same mtime, via Write", func() { write(t, v, SummaryFile, "DDDD"); setTime(t0.Add(2 * time.Second)) }, "DDDD", true},
		{"size changed", func() { handEdit("EEEEE"); setTime(t0.Add(2 * time.Second)) }, "EEEEE", true},
		{"deleted", func() {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, "", true},
	}
	for _, s := range steps {
		s.act()
		got, changed, err := v.Summary(ctx)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got != s.want || changed != s.changed {
			t.Errorf("%s: Summary = %q, changed %v; want %q, %v", s.name, got, changed, s.want, s.changed)
		}
	}
}

func TestSummaryRefusesLink(t *testing.T) {
	v := newVault(t)
	secret := filepath.Join(filepath.Dir(v.Root()), "secret")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(v.Root(), SummaryFile)); err != nil {
		t.Fatal(err)
	}
	got, _, err := v.Summary(context.Background())
	if memory.ErrorCode(err) != memory.CodeInvalid || got != "" {
		t.Errorf("Summary through a link = %q, %v; want a refusal", got, err)
	}
}
