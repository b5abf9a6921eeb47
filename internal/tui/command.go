package tui

import (
	"context"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// The engine's answers come back to Update as these messages. seq numbers
// loads and searches, so an answer overtaken by a newer request is dropped.
type (
	loadedMsg struct {
		seq      int
		announce bool             // a reload the user asked for: say what was read
		current  engine.NotesView // active notes and episodes, and the profile
		all      engine.NotesView // every row, for the forgotten tab
		switches engine.Switches
		err      error
	}
	searchedMsg struct {
		seq      int
		announce bool // a search the user ran: say how many hits
		res      engine.SearchResult
		err      error
	}
	changedMsg struct {
		change change
		ref    engine.Ref
		label  string
		err    error
	}
)

// change is one of the three row changes.
type change int

const (
	changeForget change = iota
	changeUndo
	changePin
	changeUnpin
	changeEdit
)

func (c change) verb() string {
	switch c {
	case changeForget:
		return "forget"
	case changeUndo:
		return "restore"
	case changePin:
		return "pin"
	case changeEdit:
		return "edit"
	}
	return "unpin"
}

func (c change) done() string {
	switch c {
	case changeForget:
		return "forgot"
	case changeUndo:
		return "restored"
	case changePin:
		return "pinned"
	case changeEdit:
		return "edited"
	}
	return "unpinned"
}

// searchLimit bounds a search's hits: a page or two of a tall terminal.
const searchLimit = 50

func load(ctx context.Context, eng Engine, seq int, announce bool) tea.Cmd {
	return func() tea.Msg {
		msg := loadedMsg{seq: seq, announce: announce}
		if msg.switches, msg.err = eng.Switches(ctx); msg.err != nil {
			return msg
		}
		if msg.current, msg.err = eng.Notes(ctx, false, true); msg.err != nil {
			return msg
		}
		msg.all, msg.err = eng.Notes(ctx, true, true)
		return msg
	}
}

// search reads this directory's place up to everywhere: a person looking
// for what cairn holds wants every rung, not the worktree alone.
func search(ctx context.Context, eng Engine, seq int, query, cwd string, announce bool) tea.Cmd {
	return func() tea.Msg {
		res, err := eng.Search(ctx, engine.SearchRequest{Query: query, Cwd: cwd, Rung: memory.RungEverywhere, Limit: searchLimit})
		return searchedMsg{seq: seq, announce: announce, res: res, err: err}
	}
}

// apply runs one change on a row the engine can change.
func apply(ctx context.Context, eng Engine, c change, ref engine.Ref, label string) tea.Cmd {
	return func() tea.Msg {
		msg := changedMsg{change: c, ref: ref, label: label}
		switch c {
		case changeForget:
			_, msg.err = eng.Forget(ctx, ref)
		case changeUndo:
			_, msg.err = eng.Undo(ctx, ref)
		case changePin, changeUnpin:
			_, msg.err = eng.Pin(ctx, ref, c == changePin)
		}
		return msg
	}
}

// reword replaces a note's wording; the old one stays as history.
func reword(ctx context.Context, eng Engine, ref engine.Ref, label, text string) tea.Cmd {
	return func() tea.Msg {
		msg := changedMsg{change: changeEdit, ref: ref, label: label}
		var st memory.Statement
		if st, msg.err = eng.EditNote(ctx, ref.ID, text); msg.err == nil && st.ID != ref.ID {
			msg.label += " (now #" + strconv.FormatInt(st.ID, 10) + ")"
		}
		return msg
	}
}
