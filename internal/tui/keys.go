package tui

import "charm.land/bubbles/v2/key"

// keyMap holds every binding once, for matching and for the help.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom        key.Binding
	NextTab, PrevTab, Tab1, Tab2, Tab3, Tab4, Tab5 key.Binding
	Search, Run, Leave                             key.Binding
	Forget, Undo, Pin, Edit, Reload, Help, Quit    key.Binding
}

func newKeyMap() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+f", "space"),
		Top:      b("g", "first row", "g", "home"),
		Bottom:   b("G", "last row", "G", "end"),
		NextTab:  b("tab/→", "next tab", "tab", "right", "l"),
		PrevTab:  b("shift+tab/←", "previous tab", "shift+tab", "left", "h"),
		Tab1:     b("1", "L1 notes", "1"),
		Tab2:     b("2", "L2 episodes", "2"),
		Tab3:     b("3", "L3 profile", "3"),
		Tab4:     b("4", "forgotten", "4"),
		Tab5:     b("5", "search results", "5"),
		Search:   b("/", "search", "/"),
		Run:      b("enter", "run the search", "enter"),
		Leave:    b("esc", "leave the search box or the help", "esc"),
		Forget:   b("f", "forget", "f"),
		Undo:     b("u", "undo", "u"),
		Pin:      b("p", "pin/unpin", "p"),
		Edit:     b("e", "edit", "e"),
		Reload:   b("r", "reload", "r"),
		Help:     b("?", "help", "?"),
		Quit:     b("q", "quit", "q", "ctrl+c"),
	}
}

// short is the one-line reminder at the bottom, brief enough for 80
// columns.
func (k keyMap) short() []key.Binding {
	brief := func(b key.Binding, keys, desc string) key.Binding {
		b.SetHelp(keys, desc)
		return b
	}
	return []key.Binding{brief(k.Up, "↑/↓", "move"), brief(k.NextTab, "tab", "layer"), k.Search, k.Forget, k.Undo,
		brief(k.Pin, "p", "pin"), k.Reload, k.Help, k.Quit}
}

// helpLine is one line of the help screen.
type helpLine struct {
	b    key.Binding
	long string
}

// full is the help screen, with what each key does in words.
func (k keyMap) full() []helpLine {
	return []helpLine{
		{k.Up, "move up (also k)"},
		{k.Down, "move down (also j)"},
		{k.PageUp, "a page up (also ctrl+b)"},
		{k.PageDown, "a page down (also ctrl+f, space)"},
		{k.Top, "first row (also home)"},
		{k.Bottom, "last row (also end)"},
		{k.NextTab, "next tab (also l); 1–5 jump to a tab"},
		{k.PrevTab, "previous tab (also h)"},
		{k.Search, "search every layer, this place up to everywhere; enter runs it, esc leaves"},
		{k.Forget, "forget the selected note, fact or episode: it moves to the forgotten tab"},
		{k.Undo, "restore the selected forgotten row; elsewhere, undo your last forget"},
		{k.Pin, "pin or unpin the selected row: pinned rows are recalled first"},
		{k.Edit, "reword the selected note; enter saves (the old wording stays as history), esc leaves"},
		{k.Reload, "read the store again (and rerun the search)"},
		{k.Help, "this help; ? or esc closes it"},
		{k.Quit, "quit (also ctrl+c)"},
	}
}
