package tui

// tab is one of the manager's lists.
type tab int

// The tabs, in the order the tab key visits them.
const (
	tabNotes tab = iota
	tabEpisodes
	tabProfile
	tabForgotten
	tabSearch
	tabCount
)

func (t tab) String() string {
	switch t {
	case tabNotes:
		return "L1 notes"
	case tabEpisodes:
		return "L2 episodes"
	case tabProfile:
		return "L3 profile"
	case tabForgotten:
		return "forgotten"
	case tabSearch:
		return "search"
	}
	return "?"
}

// empty is what a tab with no rows says, so an empty list is never a
// blank screen.
func (t tab) empty() string {
	switch t {
	case tabNotes:
		return "no notes yet: cairn learns them from your sessions, or `cairn remember \"…\"`"
	case tabEpisodes:
		return "no episodes yet: each finished turn of a session becomes one"
	case tabProfile:
		return "no profile yet: it is built once there are enough notes (`cairn maintain`)"
	case tabForgotten:
		return "nothing forgotten: f forgets the selected note or episode"
	case tabSearch:
		return "/ searches every layer"
	}
	return ""
}

func (t tab) next() tab { return (t + 1) % tabCount }
func (t tab) prev() tab { return (t + tabCount - 1) % tabCount }
