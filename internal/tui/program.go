package tui

import (
	"context"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Run shows the memory manager on out, reading keys from in, until the
// user quits or ctx ends. extra options go to the program (a test gives
// the size a pipe does not have).
func Run(ctx context.Context, eng Engine, o Options, in io.Reader, out io.Writer, extra ...tea.ProgramOption) error {
	opts := append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)}, extra...)
	p := tea.NewProgram(New(ctx, eng, o), opts...)
	_, err := p.Run()
	return err
}
