package tui_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestViewGolden renders each screen of a fixed store at a fixed size.
func TestViewGolden(t *testing.T) {
	cases := []struct {
		name          string
		width, height int
		off           bool
		keys          []string
	}{
		{"notes", 100, 30, false, nil},
		{"notes_narrow_pinned", 60, 20, false, []string{"j", "p"}},
		{"episodes", 100, 30, false, []string{"2"}},
		{"profile", 100, 30, false, []string{"3"}},
		{"forgotten", 100, 30, false, []string{"j", "f", "4"}},
		{"search", 100, 30, false, []string{"/", "checkout test", "enter"}},
		{"search_box", 100, 30, false, []string{"/", "checkout"}},
		{"refused", 100, 30, false, []string{"3", "f"}},
		{"help", 100, 30, false, []string{"?"}},
		{"memory_off", 100, 30, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.seed(t)
			if c.off {
				if err := f.eng.SetSetting(f.ctx, "memory.enabled", "false"); err != nil {
					t.Fatal(err)
				}
			}
			d := f.open(t, c.width, c.height)
			d.press(c.keys...)
			golden(t, filepath.Join("testdata", c.name+".golden"), d.view()+"\n")
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
