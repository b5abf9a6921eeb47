package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// layout splits the screen's height: header, banner, tabs and a rule
// above; the list, a rule and the detail pane; the search box, the status
// and the keys below.
func (m Model) layout() (listH, detailH int) {
	rest := m.height - 6 - len(m.banner()) - m.boxLines()
	detailH = max(3, min(10, rest*2/5))
	return max(1, rest-detailH), detailH
}

func (m Model) boxLines() int {
	if m.typing || m.tab == tabSearch {
		return 1
	}
	return 0
}

// banner says plainly when memory, learning or recall is off.
func (m Model) banner() []string {
	sw := m.switches
	switch {
	case !m.ready:
		return nil
	case !sw.Enabled:
		return []string{"Memory is off: cairn neither learns nor recalls. `cairn config set memory.enabled true` turns it on."}
	case !sw.Capture && !sw.Recall:
		return []string{"Learning and recall are off (memory.capture, memory.recall): nothing new is remembered and agents are shown nothing."}
	case !sw.Capture:
		return []string{"Learning is off (memory.capture): nothing new is remembered."}
	case !sw.Recall:
		return []string{"Recall is off (memory.recall): agents are shown nothing."}
	}
	return nil
}

// View draws the whole screen on the alternate screen, every line cut to
// the width, with the terminal's cursor in the search box while typing.
func (m Model) View() tea.View {
	lines, cursorY := m.screen()
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	if c := m.input.Cursor(); m.typing && c != nil {
		c.Position.Y = cursorY
		v.Cursor = c
	}
	return v
}

// screen is the screen's lines, and the line of the search box.
func (m Model) screen() ([]string, int) {
	w := max(20, m.width)
	listH, detailH := m.layout()
	var out []string
	out = append(out, m.header(w))
	for _, b := range m.banner() {
		out = append(out, m.st.banner.Render(fit(b, w)))
	}
	out = append(out, m.tabs(w), m.rule(w))
	if m.help {
		out = append(out, pad(m.helpLines(w), listH+1+detailH)...)
	} else {
		out = append(out, pad(m.listLines(w, listH), listH)...)
		out = append(out, m.rule(w))
		out = append(out, pad(m.detailLines(w, detailH), detailH)...)
	}
	boxY := len(out)
	if m.boxLines() > 0 {
		out = append(out, m.box(w))
	}
	out = append(out, m.statusLine(w), m.keyLine(w))
	return out, boxY
}

func (m Model) header(w int) string {
	left := "cairn · memory manager"
	right := m.cwd
	room := w - ansi.StringWidth(left) - 2
	if room < 8 || right == "" {
		return m.st.title.Render(fit(left, w))
	}
	if n := ansi.StringWidth(right); n > room {
		right = ansi.TruncateLeft(right, n-room+1, "…")
	}
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(right)
	return m.st.title.Render(left) + strings.Repeat(" ", gap) + m.st.dim.Render(right)
}

// tabs names each tab with its count; the active one is bracketed, so it
// shows without colour too.
func (m Model) tabs(w int) string {
	var parts []string
	for t := tab(0); t < tabCount; t++ {
		name := fmt.Sprintf("%s %d", t, len(m.lists[t].rows))
		if t == m.tab {
			parts = append(parts, m.st.activeTab.Render("["+name+"]"))
		} else {
			parts = append(parts, m.st.tab.Render(" "+name+" "))
		}
	}
	return ansi.Truncate(strings.Join(parts, " "), w, "…")
}

func (m Model) rule(w int) string { return m.st.rule.Render(strings.Repeat("─", w)) }

func (m Model) listLines(w, h int) []string {
	l := m.lists[m.tab]
	rows, cur := l.visible(h)
	if len(rows) == 0 {
		return []string{m.st.dim.Render(fit("  "+m.tab.empty(), w))}
	}
	labelW := 0
	for _, r := range l.rows {
		labelW = max(labelW, ansi.StringWidth(r.label))
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = m.rowLine(r, i == cur, labelW, w)
	}
	return out
}

// rowLine is "› * #12  text …  meta": the cursor, the pin, the id, for a
// hit its layer and score, the text cut to fit, and the dim details.
func (m Model) rowLine(r row, selected bool, labelW, w int) string {
	left := "  "
	if selected {
		left = "› "
	}
	if r.pinned {
		left += "* "
	} else {
		left += "  "
	}
	left += r.label + strings.Repeat(" ", labelW-ansi.StringWidth(r.label)) + "  "
	if r.hit {
		left += fmt.Sprintf("%-2s %.3f  ", r.layer, r.score)
	}
	meta := r.meta
	if !r.current {
		meta = join(" · ", r.state, meta)
	}
	meta = ansi.Truncate(meta, w/3, "…")
	textW := w - ansi.StringWidth(left) - ansi.StringWidth(meta) - 2
	text := fit(r.text, max(0, textW))
	line := left + text + "  "
	if selected {
		return m.st.selected.Render(line) + m.st.dim.Render(meta)
	}
	return line + m.st.dim.Render(meta)
}

func (m Model) box(w int) string {
	if m.typing {
		return m.input.View()
	}
	return m.st.dim.Render(fit("search: "+m.query+"   (/ edits it, esc goes back)", w))
}

func (m Model) statusLine(w int) string {
	if m.failed {
		return m.st.err.Render(fit("! "+m.status, w))
	}
	return m.st.ok.Render(fit(m.status, w))
}

func (m Model) keyLine(w int) string {
	bs := m.keys.short()
	if m.typing {
		bs = []key.Binding{m.keys.Run, m.keys.Leave}
		if m.editing != nil {
			save, leave := m.keys.Run, m.keys.Leave
			save.SetHelp("enter", "save the new wording")
			leave.SetHelp("esc", "leave it as it was")
			bs = []key.Binding{save, leave}
		}
	}
	var parts []string
	for _, b := range bs {
		parts = append(parts, m.st.key.Render(b.Help().Key)+" "+m.st.dim.Render(b.Help().Desc))
	}
	return ansi.Truncate(strings.Join(parts, m.st.dim.Render(" · ")), w, "…")
}

func (m Model) helpLines(w int) []string {
	out := []string{m.st.title.Render("keys"), ""}
	for _, h := range m.keys.full() {
		k := h.b.Help().Key
		out = append(out, fit("  "+m.st.key.Render(k)+strings.Repeat(" ", max(1, 13-ansi.StringWidth(k)))+h.long, w))
	}
	return append(out, "", fit("  * marks a pinned row. Raw transcript parts (L0) and the profile (L3) are shown, never changed.", w))
}

// fit cuts s to w cells, with an ellipsis when it was longer.
func fit(s string, w int) string { return ansi.Truncate(s, w, "…") }

// pad makes lines exactly h long, so the layout does not jump.
func pad(lines []string, h int) []string {
	if len(lines) > h {
		return lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}
