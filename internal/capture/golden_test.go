package capture_test

import (
	"flag"
	"os"
	"path"
	"testing"
)

// update rewrites golden files instead of comparing with them. Every test
// file of the package shares this one flag.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares got with the file at p, or rewrites the file with -update.
func golden(t *testing.T, p, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(path.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", p, got, want)
	}
}
