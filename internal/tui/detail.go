package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// nameW is the width of a field's name in the detail pane.
const nameW = 9

// detailLines shows the selected row: its fields two to a line (one when
// the value is long), then its full text wrapped.
func (m Model) detailLines(w, h int) []string {
	r, ok := m.lists[m.tab].selected()
	if !ok {
		return nil
	}
	col := w / 2
	var out []string
	half := ""
	for _, f := range r.fields {
		cell := m.st.label.Render(f.name+strings.Repeat(" ", max(1, nameW-len(f.name)))) + f.value
		if nameW+ansi.StringWidth(f.value) >= col {
			if half != "" {
				out, half = append(out, strings.TrimRight(half, " ")), ""
			}
			out = append(out, fit(cell, w))
			continue
		}
		if half == "" {
			half = cell + strings.Repeat(" ", col-ansi.StringWidth(cell))
			continue
		}
		out, half = append(out, half+cell), ""
	}
	if half != "" {
		out = append(out, strings.TrimRight(half, " "))
	}
	if len(out) >= h {
		return out[:h]
	}
	body := strings.Split(ansi.Wrap(strings.TrimSpace(r.body), w, ""), "\n")
	room := h - len(out)
	if len(body) > room {
		body = body[:room]
		last := body[room-1]
		body[room-1] = ansi.Truncate(last, w-1, "") + "…"
	}
	return append(out, body...)
}
