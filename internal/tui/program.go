package tui

import (
	"context"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Run shows the memory manager on out, reading keys from in, until the
// user quits or ctx ends.
func Run(ctx context.Context, eng Engine, o Options, in io.Reader, out io.Writer) error {
	if o.Renderer == nil {
		o.Renderer = lipgloss.NewRenderer(out)
	}
	p := tea.NewProgram(New(ctx, eng, o), tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen())
	_, err := p.Run()
	return err
}
