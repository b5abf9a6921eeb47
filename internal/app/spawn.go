package app

import (
	"os"
	"os/exec"
	"syscall"
)

// spawnDetached starts cairn again with args in its own session, with no
// terminal and no inherited pipes, and does not wait: the hook that asked
// returns at once and the work outlives the client's session. The child
// uses the same data dir and config: it inherits the environment that
// chose them, and an explicit home (--home) is passed on. Passing the data
// dir as --home when none was given would move the config file from the
// XDG config dir to the data dir.
func spawnDetached(home string, args ...string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if home != "" {
		args = append([]string{"--home", home}, args...)
	}
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	if err := cmd.Start(); err != nil {
		return err
	}
	// Reaped when it ends: a long-lived parent (the resident process) would
	// otherwise collect zombies; a short-lived one exits first and leaves
	// the child to init.
	go func() { _ = cmd.Wait() }()
	return nil
}
