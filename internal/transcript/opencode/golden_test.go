package opencode

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden pins everything each fixture renders to (every part's text,
// time and flags), so that a change to rendering or mapping shows up as a
// reviewable diff. Refresh with: go test ./internal/transcript/opencode -update
func TestGolden(t *testing.T) {
	type golden struct {
		Sessions any
		Stats    transcript.Stats
	}
	sources := map[string]func() (transcript.Result, error){
		"synthetic-storage": func() (transcript.Result, error) {
			return ParseStorage(context.Background(), "testdata/synthetic/codemie_legacy_storage_SYNTHETIC")
		},
	}
	for _, fx := range realFixtures {
		file := fx.file
		sources[strings.TrimSuffix(filepath.Base(file), ".export.json")] = func() (transcript.Result, error) {
			f, err := os.Open(filepath.Join("testdata", file))
			if err != nil {
				return transcript.Result{}, err
			}
			defer f.Close()
			return ParseExport(f)
		}
	}
	for name, read := range sources {
		t.Run(name, func(t *testing.T) {
			res, err := read()
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(golden{res.Sessions, res.Stats}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; if the change is intended, run with -update and review the diff", name, path)
			}
		})
	}
}
