package tui

import "charm.land/lipgloss/v2"

// styles colour the screen with the 16 ANSI colours, which every colour
// terminal has; the program lowers them further (or drops them, with
// NO_COLOR) to what the terminal supports.
type styles struct {
	title, tab, activeTab, rule, dim, selected, label, banner, err, ok, key, prompt lipgloss.Style
}

func newStyles() styles {
	s := lipgloss.NewStyle
	return styles{
		title:     s().Bold(true),
		tab:       s().Foreground(lipgloss.BrightBlack),
		activeTab: s().Bold(true).Underline(true),
		rule:      s().Foreground(lipgloss.BrightBlack),
		dim:       s().Foreground(lipgloss.BrightBlack),
		selected:  s().Bold(true).Foreground(lipgloss.BrightCyan),
		label:     s().Foreground(lipgloss.Cyan),
		banner:    s().Bold(true).Foreground(lipgloss.Black).Background(lipgloss.BrightYellow),
		err:       s().Foreground(lipgloss.BrightRed),
		ok:        s().Foreground(lipgloss.BrightGreen),
		key:       s().Bold(true),
		prompt:    s().Foreground(lipgloss.White), // the box's prompt, as bubbles' textinput drew it
	}
}
