package tui

import "github.com/charmbracelet/lipgloss"

// styles are built from one renderer, so a test renders plain text and a
// terminal gets what it supports. Plain ANSI colours only: an adaptive
// colour would make lipgloss query the terminal while bubbletea owns it.
type styles struct {
	title, tab, activeTab, rule, dim, selected, label, banner, err, ok, key lipgloss.Style
}

func newStyles(r *lipgloss.Renderer) styles {
	s := r.NewStyle
	return styles{
		title:     s().Bold(true),
		tab:       s().Foreground(lipgloss.Color("8")),
		activeTab: s().Bold(true).Underline(true),
		rule:      s().Foreground(lipgloss.Color("8")),
		dim:       s().Foreground(lipgloss.Color("8")),
		selected:  s().Bold(true).Foreground(lipgloss.Color("14")),
		label:     s().Foreground(lipgloss.Color("6")),
		banner:    s().Bold(true).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("11")),
		err:       s().Foreground(lipgloss.Color("9")),
		ok:        s().Foreground(lipgloss.Color("10")),
		key:       s().Bold(true),
	}
}
