package filelock

import (
	"os/exec"
	"path/filepath"
	"testing"
)

func TestOneHolderAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "x.lock")
	release, ok, err := Try(path)
	if err != nil || !ok {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	// flock locks belong to the open file: a second open, as another
	// process would make, is refused.
	if _, ok, err := Try(path); err != nil || ok {
		t.Fatalf("second lock while held: %v %v", ok, err)
	}
	// Another process sees it too (util-linux's flock, where installed).
	if _, err := exec.LookPath("flock"); err == nil {
		if err := exec.Command("flock", "-n", path, "true").Run(); err == nil {
			t.Fatal("another process took the held lock")
		}
	}
	release()
	again, ok, err := Try(path)
	if err != nil || !ok {
		t.Fatalf("after release: %v %v", ok, err)
	}
	again()
}
