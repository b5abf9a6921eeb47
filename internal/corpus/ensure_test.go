package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEnsureGeneratesOnceAndReuses(t *testing.T) {
	cache := t.TempDir()
	opts := small(21, 400_000)
	dir, err := Ensure(cache, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, "corpus-21-400000"); dir != want {
		t.Fatalf("dir %s, want %s", dir, want)
	}
	st, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files == 0 || st.Bytes < opts.TargetBytes {
		t.Fatalf("manifest stats %+v", st)
	}
	// A file Ensure did not write survives the second call only if the
	// corpus is reused rather than regenerated.
	sentinel := filepath.Join(dir, "sentinel")
	if err := os.WriteFile(sentinel, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Ensure(cache, opts)
	if err != nil || again != dir {
		t.Fatalf("second Ensure: %s, %v", again, err)
	}
	if _, err := os.Stat(sentinel); err != nil {
		t.Fatal("corpus was regenerated instead of reused")
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("cache holds %v; want only the corpus", names)
	}
}

func TestEnsureReplacesWhatIsNotAFinishedCorpus(t *testing.T) {
	for _, tc := range []struct {
		name     string
		manifest string // "" for none
	}{
		{"interrupted (no manifest)", ""},
		{"older generator", `{"version": 0}`},
		{"garbled manifest", `{"version":`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			opts := small(4, 300_000)
			stale := filepath.Join(cache, "corpus-4-300000")
			if err := os.MkdirAll(filepath.Join(stale, "claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			leftover := filepath.Join(stale, "claude", "half.jsonl")
			if err := os.WriteFile(leftover, []byte("{\"type\":"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.manifest != "" {
				if err := os.WriteFile(filepath.Join(stale, manifestName), []byte(tc.manifest), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dir, err := Ensure(cache, opts)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(leftover); err == nil {
				t.Fatal("the unfinished corpus was kept")
			}
			if _, err := Load(dir); err != nil {
				t.Fatal(err)
			}
			entries, _ := os.ReadDir(cache)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("temporary directory %s left behind", e.Name())
				}
			}
		})
	}
}

func TestEnsureKeysOnOptions(t *testing.T) {
	cache := t.TempDir()
	a, err := Ensure(cache, small(1, 300_000))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Ensure(cache, small(2, 300_000))
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatal("two seeds share one corpus")
	}
	// Same seed and size but other bounds: regenerated in place.
	opts := small(1, 300_000)
	opts.MaxTurns = 6
	c, err := Ensure(cache, opts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := readManifest(c)
	if err != nil || c != a || m.Options.MaxTurns != 6 {
		t.Fatalf("dir %s (want %s), manifest %+v, %v", c, a, m.Options, err)
	}
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	if d, err := DefaultCacheDir(); err != nil || d != "/x/cache/cairn-bench" {
		t.Fatalf("with XDG_CACHE_HOME: %s, %v", d, err)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/home/someone")
	if d, err := DefaultCacheDir(); err != nil || d != "/home/someone/.cache/cairn-bench" {
		t.Fatalf("without: %s, %v", d, err)
	}
}
