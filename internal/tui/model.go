package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

// Options configure the memory manager.
type Options struct {
	// Cwd is the directory whose place a search starts from.
	Cwd string
	// Zone is where times are shown; nil: the local zone.
	Zone *time.Location
}

// Model is the memory manager's state. It is a value: Update returns the
// next one, and every engine call goes out as a tea.Cmd whose answer comes
// back as a message.
type Model struct {
	// ctx is the program's: commands run after Update has returned, and
	// stop when the program does.
	ctx   context.Context
	eng   Engine
	cwd   string
	clock clock
	st    styles
	keys  keyMap

	tab   tab
	back  tab // where esc on the search tab returns
	lists [tabCount]list
	input lineInput
	// typing: the box has the keyboard: a search, or, with editing set,
	// a note's new wording.
	typing  bool
	editing *forgotten
	query   string // the search the search tab shows
	help    bool

	ready    bool // the first load has come back
	switches engine.Switches
	status   string
	failed   bool // status is an error
	// forgot is the last row forgotten, which u restores from any tab.
	forgot    *forgotten
	width     int
	height    int
	loadSeq   int
	searchSeq int
}

type forgotten struct {
	ref   engine.Ref
	label string
}

// The box's two prompts.
const (
	searchPrompt = "search: "
	editPrompt   = "edit: "
)

// New builds the model; Init starts the first load.
func New(ctx context.Context, eng Engine, o Options) Model {
	if o.Zone == nil {
		o.Zone = time.Local
	}
	st := newStyles()
	m := Model{ctx: ctx, eng: eng, cwd: o.Cwd, clock: clock{o.Zone}, st: st, keys: newKeyMap(),
		input:  newLineInput(searchPrompt, "words to find in every layer", st.prompt, st.dim),
		status: "reading the store…", width: 80, height: 24}
	m.input.SetWidth(m.inputWidth())
	return m
}

// inputWidth is the search box's room for text after its prompt; the
// box scrolls a longer query, and the cursor follows.
func (m Model) inputWidth() int { return max(10, m.width-len(m.input.Prompt)-1) }

// Init loads the lists.
func (m Model) Init() tea.Cmd { return load(m.ctx, m.eng, m.loadSeq, true) }

// Update handles one message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.input.SetWidth(m.inputWidth())
	case loadedMsg:
		m = m.loaded(msg)
	case searchedMsg:
		m = m.searched(msg)
	case changedMsg:
		m, cmd = m.changed(msg)
	case tea.KeyPressMsg:
		m, cmd = m.key(msg)
	default:
		if m.typing {
			m.input = m.input.Update(msg)
		}
	}
	listH, _ := m.layout()
	m.lists[m.tab].follow(listH)
	return m, cmd
}

func (m Model) loaded(msg loadedMsg) Model {
	if msg.seq != m.loadSeq {
		return m
	}
	if msg.err != nil {
		return m.fail("could not read memory", msg.err)
	}
	m.ready, m.switches = true, msg.switches
	var notes, episodes, profile, gone []row
	for _, s := range msg.current.Notes {
		notes = append(notes, noteRow(s, m.clock))
	}
	for _, e := range msg.current.Episodes {
		episodes = append(episodes, episodeRow(e, m.clock))
	}
	if p := msg.current.Profile; p != nil {
		profile = append(profile, profileRow(*p, m.clock))
	}
	// Withdrawn rows can be restored; a note closed by a newer one is
	// history, not something the user forgot.
	for _, s := range msg.all.Notes {
		if s.Withdrawn() {
			gone = append(gone, noteRow(s, m.clock))
		}
	}
	for _, e := range msg.all.Episodes {
		if !e.ExpiredAt.IsZero() {
			gone = append(gone, episodeRow(e, m.clock))
		}
	}
	m.lists[tabNotes].set(notes)
	m.lists[tabEpisodes].set(episodes)
	m.lists[tabProfile].set(profile)
	m.lists[tabForgotten].set(gone)
	if msg.announce {
		m.status, m.failed = fmt.Sprintf("%s, %s, %d forgotten", count(len(notes), "note"), count(len(episodes), "episode"), len(gone)), false
	}
	return m
}

func (m Model) searched(msg searchedMsg) Model {
	if msg.seq != m.searchSeq {
		return m
	}
	if msg.err != nil {
		return m.fail("search failed", msg.err)
	}
	rows := make([]row, 0, len(msg.res.Hits))
	for _, h := range msg.res.Hits {
		rows = append(rows, hitRow(h, m.clock))
	}
	m.lists[tabSearch].set(rows)
	if msg.announce {
		m.lists[tabSearch].top()
		m.status, m.failed = fmt.Sprintf("%s for “%s”", count(len(rows), "hit"), msg.res.Query), false
		if len(msg.res.Terms) == 0 {
			m.status = fmt.Sprintf("nothing to search for in “%s”: every word is too common or too short", msg.res.Query)
		}
	}
	return m
}

func (m Model) changed(msg changedMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		return m.fail("could not "+msg.change.verb()+" "+msg.label, msg.err), nil
	}
	m.status, m.failed = msg.change.done()+" "+msg.label, false
	switch msg.change {
	case changeForget:
		m.forgot = &forgotten{ref: msg.ref, label: msg.label}
		m.status += " (u undoes it)"
	case changeUndo:
		if m.forgot != nil && m.forgot.ref == msg.ref {
			m.forgot = nil
		}
	}
	cmd := m.refresh(false)
	return m, cmd
}

// refresh reads the lists again, and the search when one is shown.
func (m *Model) refresh(announce bool) tea.Cmd {
	m.loadSeq++
	cmds := []tea.Cmd{load(m.ctx, m.eng, m.loadSeq, announce)}
	if m.query != "" {
		m.searchSeq++
		cmds = append(cmds, search(m.ctx, m.eng, m.searchSeq, m.query, m.cwd, false))
	}
	return tea.Batch(cmds...)
}

func (m Model) fail(what string, err error) Model {
	m.status, m.failed = what+": "+err.Error(), true
	return m
}

func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	if m.typing {
		return m.typingKey(msg)
	}
	if m.help {
		switch {
		case key.Matches(msg, k.Help, k.Leave):
			m.help = false
			return m, nil
		case !key.Matches(msg, k.Quit):
			m.help = false
		}
	}
	listH, _ := m.layout()
	l := &m.lists[m.tab]
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.help = true
	case key.Matches(msg, k.Up):
		l.move(-1)
	case key.Matches(msg, k.Down):
		l.move(1)
	case key.Matches(msg, k.PageUp):
		l.move(-max(1, listH-1))
	case key.Matches(msg, k.PageDown):
		l.move(max(1, listH-1))
	case key.Matches(msg, k.Top):
		l.top()
	case key.Matches(msg, k.Bottom):
		l.bottom()
	case key.Matches(msg, k.NextTab):
		m.tab = m.tab.next()
	case key.Matches(msg, k.PrevTab):
		m.tab = m.tab.prev()
	case key.Matches(msg, k.Tab1, k.Tab2, k.Tab3, k.Tab4, k.Tab5):
		m.tab = tab(msg.String()[0] - '1')
	case key.Matches(msg, k.Edit):
		return m.startEdit()
	case key.Matches(msg, k.Search):
		m.typing = true
		m.input.Prompt = searchPrompt
		m.input.SetWidth(m.inputWidth())
		m.input.SetValue(m.query)
		m.input.CursorEnd()
		m.input.Focus()
		return m, nil
	case key.Matches(msg, k.Leave):
		if m.tab == tabSearch {
			m.tab = m.back
		}
	case key.Matches(msg, k.Forget):
		return m.forget()
	case key.Matches(msg, k.Undo):
		return m.undo()
	case key.Matches(msg, k.Pin):
		return m.pin()
	case key.Matches(msg, k.Reload):
		m.status, m.failed = "reading the store…", false
		cmd := m.refresh(true)
		return m, cmd
	}
	return m, nil
}

func (m Model) typingKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	switch msg.String() {
	case "ctrl+c":
		return m, tea.Quit
	case "esc":
		m.typing = false
		m.editing = nil
		m.input.Blur()
		return m, nil
	case "enter":
		if e := m.editing; e != nil {
			text := strings.TrimSpace(m.input.Value())
			if text == "" {
				m.status, m.failed = "type the note's new wording, then enter (esc leaves it as it was)", false
				return m, nil
			}
			m.typing, m.editing = false, nil
			m.input.Blur()
			m.status, m.failed = "saving "+e.label+"…", false
			return m, reword(m.ctx, m.eng, e.ref, e.label, text)
		}
		q := strings.TrimSpace(m.input.Value())
		if q == "" {
			m.status, m.failed = "type what to search for, then enter (esc leaves the box)", false
			return m, nil
		}
		m.typing = false
		m.input.Blur()
		if m.tab != tabSearch {
			m.back = m.tab
		}
		m.tab, m.query = tabSearch, q
		m.status, m.failed = "searching…", false
		m.searchSeq++
		return m, search(m.ctx, m.eng, m.searchSeq, q, m.cwd, true)
	}
	m.input = m.input.Update(msg)
	return m, nil
}

// target is the selected row as the engine names it, or why it cannot be
// changed.
func (m Model) target() (row, engine.Ref, error) {
	r, ok := m.lists[m.tab].selected()
	if !ok {
		return r, engine.Ref{}, memory.Errorf(memory.CodeInvalid, "nothing selected: %s", m.tab.empty())
	}
	ref, err := engine.ParseRef(r.ref)
	return r, ref, err
}

func (m Model) forget() (Model, tea.Cmd) {
	r, ref, err := m.target()
	if err != nil {
		return m.refuse(err), nil
	}
	if !r.current {
		m.status, m.failed = r.label+" is already forgotten: u restores it", true
		return m, nil
	}
	m.status, m.failed = "forgetting "+r.label+"…", false
	return m, apply(m.ctx, m.eng, changeForget, ref, r.label)
}

// undo restores the selected forgotten row; on a row that is not
// forgotten it undoes the last forget.
func (m Model) undo() (Model, tea.Cmd) {
	r, ref, err := m.target()
	if err == nil && !r.current {
		m.status, m.failed = "restoring "+r.label+"…", false
		return m, apply(m.ctx, m.eng, changeUndo, ref, r.label)
	}
	if f := m.forgot; f != nil {
		m.status, m.failed = "restoring "+f.label+"…", false
		return m, apply(m.ctx, m.eng, changeUndo, f.ref, f.label)
	}
	if err != nil {
		return m.refuse(err), nil
	}
	m.status, m.failed = "nothing to undo: "+r.label+" is not forgotten; u restores a row of the forgotten tab (4) or your last forget", true
	return m, nil
}

// startEdit opens the box on the selected note's wording.
func (m Model) startEdit() (Model, tea.Cmd) {
	r, ref, err := m.target()
	if err != nil {
		return m.refuse(err), nil
	}
	if ref.Episode || r.layer != memory.L1 {
		m.status, m.failed = r.label+" is a summary of a turn, not a note: forget it, or remember a note with `cairn remember`", true
		return m, nil
	}
	if !r.current {
		m.status, m.failed = r.label+" is not current: u restores it, then e edits it", true
		return m, nil
	}
	m.typing, m.editing = true, &forgotten{ref: ref, label: r.label}
	m.input.Prompt = editPrompt
	m.input.SetWidth(m.inputWidth())
	m.input.SetValue(r.body)
	m.input.CursorEnd()
	m.input.Focus()
	return m, nil
}

func (m Model) pin() (Model, tea.Cmd) {
	r, ref, err := m.target()
	if err != nil {
		return m.refuse(err), nil
	}
	c := changePin
	if r.pinned {
		c = changeUnpin
	}
	m.status, m.failed = map[change]string{changePin: "pinning ", changeUnpin: "unpinning "}[c]+r.label+"…", false
	return m, apply(m.ctx, m.eng, c, ref, r.label)
}

// refuse shows why a key did nothing; the engine's message says it.
func (m Model) refuse(err error) Model {
	m.status, m.failed = err.Error(), true
	return m
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
