package tui

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/clipperhouse/uax29/v2/graphemes"
)

// lineInput is the one-line box a search or a note's new wording is typed
// into. It is the package's own rather than bubbles' textinput, which
// links a clipboard package whose init looks for xclip, xsel, wl-copy… on
// PATH in every cairn process, the agents' hooks included. The terminal
// still pastes: bracketed paste arrives as tea.PasteMsg.
//
// The text is held as grapheme clusters, what the terminal draws as one
// character, each with its width in cells: the cursor never lands inside
// an emoji or between a letter and its accent, and a wide character
// counts two cells.
type lineInput struct {
	Prompt      string
	Placeholder string

	promptStyle, placeholderStyle lipgloss.Style

	// width is the cells for the text after the prompt; one more cell
	// holds the cursor after the last character.
	width   int
	chars   []string // grapheme clusters
	cells   []int    // each cluster's width
	pos     int      // the cursor: how many clusters stand before it
	offset  int      // the first cluster shown when the text is wider than the box
	focused bool
}

func newLineInput(prompt, placeholder string, promptStyle, placeholderStyle lipgloss.Style) lineInput {
	return lineInput{Prompt: prompt, Placeholder: placeholder, promptStyle: promptStyle,
		placeholderStyle: placeholderStyle, width: 1}
}

// SetWidth sets the cells for the text; a longer text scrolls so that the
// cursor stays in view.
func (l *lineInput) SetWidth(w int) {
	l.width = max(1, w)
	l.scroll()
}

// SetValue replaces the text, made one line, and puts the cursor at its
// end.
func (l *lineInput) SetValue(s string) {
	s = clean(s)
	l.set(s, len(s))
}

// Value is the text.
func (l lineInput) Value() string { return strings.Join(l.chars, "") }

// CursorEnd puts the cursor after the last character.
func (l *lineInput) CursorEnd() {
	l.pos = len(l.chars)
	l.scroll()
}

// Focus gives the box the keyboard; Blur takes it away, and the cursor
// with it.
func (l *lineInput) Focus() { l.focused = true }
func (l *lineInput) Blur()  { l.focused = false }

// Update edits the text with a key or a paste; without the focus it does
// nothing.
func (l lineInput) Update(msg tea.Msg) lineInput {
	if !l.focused {
		return l
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		l.key(msg)
	case tea.PasteMsg:
		l.insert(msg.Content)
	}
	l.scroll()
	return l
}

// key applies one key press: the readline keys a shell user expects, and
// anything else that carries text is typed.
func (l *lineInput) key(msg tea.KeyPressMsg) {
	n := len(l.chars)
	// Keystroke, not String: String is the text of a key that has one.
	switch msg.Keystroke() {
	case "left", "ctrl+b":
		l.pos = max(0, l.pos-1)
	case "right", "ctrl+f":
		l.pos = min(n, l.pos+1)
	case "alt+left", "ctrl+left", "alt+b":
		l.pos = l.wordStart()
	case "alt+right", "ctrl+right", "alt+f":
		l.pos = l.wordEnd()
	case "home", "ctrl+a":
		l.pos = 0
	case "end", "ctrl+e":
		l.pos = n
	case "backspace", "ctrl+h":
		if l.pos > 0 {
			l.cut(l.pos-1, l.pos)
		}
	case "delete", "ctrl+d":
		if l.pos < n {
			l.cut(l.pos, l.pos+1)
		}
	case "ctrl+u":
		l.cut(0, l.pos)
	case "ctrl+k":
		l.cut(l.pos, n)
	case "ctrl+w", "alt+backspace", "ctrl+backspace":
		l.cut(l.wordStart(), l.pos)
	case "alt+d", "alt+delete", "ctrl+delete":
		l.cut(l.pos, l.wordEnd())
	default:
		l.insert(msg.Text)
	}
}

// wordStart is where the word before the cursor starts, past any spaces
// between them; wordEnd is where the word after it ends.
func (l lineInput) wordStart() int {
	i := l.pos
	for i > 0 && space(l.chars[i-1]) {
		i--
	}
	for i > 0 && !space(l.chars[i-1]) {
		i--
	}
	return i
}

func (l lineInput) wordEnd() int {
	i := l.pos
	for i < len(l.chars) && space(l.chars[i]) {
		i++
	}
	for i < len(l.chars) && !space(l.chars[i]) {
		i++
	}
	return i
}

func space(cluster string) bool {
	for _, r := range cluster {
		return unicode.IsSpace(r)
	}
	return false
}

// insert types s at the cursor, made one line.
func (l *lineInput) insert(s string) {
	s = clean(s)
	if s == "" {
		return
	}
	before := strings.Join(l.chars[:l.pos], "")
	l.set(before+s+strings.Join(l.chars[l.pos:], ""), len(before)+len(s))
}

// cut deletes the clusters [i, j) and leaves the cursor at i.
func (l *lineInput) cut(i, j int) {
	before := strings.Join(l.chars[:i], "")
	l.set(before+strings.Join(l.chars[j:], ""), len(before))
}

// set segments s again, since an edit can join clusters (an accent typed
// after its letter), and puts the cursor at byte at, or after the cluster
// that holds it. The slices are new: the model is copied by value, and an
// older copy keeps its own text.
func (l *lineInput) set(s string, at int) {
	l.chars, l.cells, l.pos = nil, nil, 0
	for it := graphemes.FromString(s); it.Next(); {
		if it.Start() < at {
			l.pos++
		}
		l.chars = append(l.chars, it.Value())
		l.cells = append(l.cells, ansi.StringWidth(it.Value()))
	}
	l.scroll()
}

// clean makes pasted or stored text one line: tabs and line breaks become
// spaces, and other control characters go, since an escape sequence would
// be drawn by the terminal rather than shown.
func clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

// room is the cells after the prompt: the text's width and the cursor's
// cell after it.
func (l lineInput) room() int { return l.width + 1 }

// scroll keeps the cursor, and the character under it, in view, and shows
// as much of the text as fits when it is shorter than the box again.
func (l *lineInput) scroll() {
	n := len(l.chars)
	l.pos = min(max(l.pos, 0), n)
	l.offset = min(max(l.offset, 0), l.pos)
	under := 1 // the cell under the cursor: its character, or a blank at the end
	if l.pos < n {
		under = max(1, l.cells[l.pos])
	}
	w := l.span(l.offset, l.pos)
	for l.offset < l.pos && w+under > l.room() {
		w -= l.cells[l.offset]
		l.offset++
	}
	tail := l.span(l.offset, n)
	for l.offset > 0 && tail+l.cells[l.offset-1]+1 <= l.room() {
		l.offset--
		tail += l.cells[l.offset]
	}
}

// span is the width of the clusters [i, j).
func (l lineInput) span(i, j int) int {
	w := 0
	for _, c := range l.cells[i:j] {
		w += c
	}
	return w
}

// View is the prompt and the text in view, padded to the box's width.
func (l lineInput) View() string {
	prompt := l.promptStyle.Render(l.Prompt)
	if len(l.chars) == 0 && l.Placeholder != "" {
		p := ansi.Truncate(l.Placeholder, l.room(), "")
		return prompt + l.placeholderStyle.Render(p+strings.Repeat(" ", l.room()-ansi.StringWidth(p)))
	}
	var b strings.Builder
	w := 0
	for i := l.offset; i < len(l.chars) && w+l.cells[i] <= l.room(); i++ {
		b.WriteString(l.chars[i])
		w += l.cells[i]
	}
	b.WriteString(strings.Repeat(" ", l.room()-w))
	return prompt + b.String()
}

// Cursor is where the terminal's cursor stands on the box's line, or nil
// without the focus; the caller sets the line. The terminal draws it: a
// cursor drawn in the text would blink on a timer, a clock in the model.
func (l lineInput) Cursor() *tea.Cursor {
	if !l.focused {
		return nil
	}
	return tea.NewCursor(ansi.StringWidth(l.Prompt)+l.span(l.offset, l.pos), 0)
}
