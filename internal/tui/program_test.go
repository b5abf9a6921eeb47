package tui_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/tui"
)

// TestRunQuits runs the real bubbletea program over a real store, with
// keys from a reader: it draws the screen and q ends it.
func TestRunQuits(t *testing.T) {
	f := newFixture(t)
	f.seed(t)
	var out bytes.Buffer
	if err := tui.Run(f.ctx, f.eng, tui.Options{Cwd: cwd}, strings.NewReader("q"), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "memory manager") {
		t.Fatalf("nothing drawn: %q", out.String())
	}
}
