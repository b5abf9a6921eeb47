package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
)

func TestTUIFlags(t *testing.T) {
	ios, _, _, _ := Test()
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--cwd", dir}, dir},
		{[]string{"--cwd", filepath.Join(dir, "sub", "..")}, dir},
	}
	for _, c := range cases {
		var got *TUIOptions
		cmd := newTUICmd(&Factory{IO: ios}, func(_ context.Context, o *TUIOptions) error { got = o; return nil })
		cmd.SetArgs(c.args)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		if got.Cwd != c.want {
			t.Errorf("%v: cwd %q, want %q", c.args, got.Cwd, c.want)
		}
	}
	cmd := newTUICmd(&Factory{IO: ios}, func(context.Context, *TUIOptions) error { return nil })
	cmd.SetArgs([]string{"extra"})
	if err := cmd.Execute(); err == nil {
		t.Fatal("an argument was accepted")
	}
}

// TestTUINeedsATerminal: without one it says so instead of drawing into a
// pipe.
func TestTUINeedsATerminal(t *testing.T) {
	ios, _, out, _ := Test()
	dir := t.TempDir()
	opened := false
	f := &Factory{
		IO:     ios,
		Paths:  func() config.Paths { return config.ResolvePaths(dir, func(string) string { return "" }) },
		Config: func() (*config.Loaded, error) { return config.Parse(nil, dir+"/config.toml", nil) },
		OpenEngine: func(context.Context, string, config.Config) (*engine.Engine, error) {
			opened = true
			return engine.New(fakeStore{}, engine.Options{}), nil
		},
	}
	err := runTUI(context.Background(), &TUIOptions{IO: ios, Factory: f, Cwd: dir})
	if !opened || err == nil || !strings.Contains(err.Error(), "needs a terminal") || ExitCode(err) != 2 {
		t.Fatalf("opened %v, err %v", opened, err)
	}
	if out.Len() != 0 {
		t.Fatalf("drew into a pipe: %q", out.String())
	}
}
