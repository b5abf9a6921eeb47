package app

import (
	"os"
	"os/exec"
	"syscall"
)

// spawnDetached starts cairn again with args in its own session, with no
// terminal and no inherited pipes, and does not wait: the hook that asked
// returns at once and the work outlives the client's session. The child
// uses the same data dir.
func spawnDetached(dataDir string, args ...string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, append([]string{"--home", dataDir}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
