package engine

import (
	"context"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Remember stores a manual note at once (no settling window): the user's
// own words, asserted, placed by its class.
func (e *Engine) Remember(ctx context.Context, text, category string, class memory.Class, pin bool, cwd string) (WriteResult, error) {
	if class == "" {
		class = memory.ClassPreference
	}
	res, err := e.Write(ctx, Write{
		Draft:  memory.Draft{Kind: memory.KindNote, Object: text, Category: category, Class: class, Pinned: pin, Evidence: memory.Evidence{Source: "cli"}},
		Writer: memory.WriterCLI, Cwd: cwd,
	})
	if err == nil {
		res.Warning = e.noteChanged(ctx, res.Statement)
	}
	return res, err
}

// Ref names an editable derived row: a statement ("12") or an episode
// ("e12"). Raw transcript parts and the profile are not editable.
type Ref struct {
	Episode bool
	ID      int64
}

// ParseRef reads a row reference as the commands print them.
func ParseRef(s string) (Ref, error) {
	s = strings.TrimSpace(strings.TrimPrefix(s, "#"))
	ep := false
	switch {
	case strings.HasPrefix(s, "e"):
		ep, s = true, s[1:]
	case strings.HasPrefix(s, "n"), strings.HasPrefix(s, "f"):
		s = s[1:]
	case strings.HasPrefix(s, "l"):
		return Ref{}, memory.Errorf(memory.CodeInvalid, "the profile (L3) is built from your notes and cannot be edited; forget the notes it rests on instead")
	case strings.HasPrefix(s, "p"):
		return Ref{}, memory.Errorf(memory.CodeInvalid, "raw transcript parts (%s) are inspection-only and cannot be forgotten or edited", s)
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return Ref{}, memory.Errorf(memory.CodeInvalid, "%q is not a memory id: use a note or fact number (12) or an episode (e12); raw transcripts cannot be edited", s)
	}
	return Ref{Episode: ep, ID: id}, nil
}

// Forget deactivates an editable derived row; Undo reactivates it.
func (e *Engine) Forget(ctx context.Context, r Ref) (any, error) {
	if r.Episode {
		return e.store.SetEpisodeState(ctx, e.acct, r.ID, memory.ReasonForgotten)
	}
	s, err := e.store.WithdrawStatement(ctx, e.acct, r.ID, memory.ReasonForgotten)
	if err == nil {
		e.noteChanged(ctx, s)
	}
	return s, err
}

// Undo reactivates a forgotten (or retracted, or capped) row.
func (e *Engine) Undo(ctx context.Context, r Ref) (any, error) {
	if r.Episode {
		return e.store.SetEpisodeState(ctx, e.acct, r.ID, "")
	}
	return e.Reopen(ctx, r.ID)
}

// Pin pins or unpins a row.
func (e *Engine) Pin(ctx context.Context, r Ref, pinned bool) (any, error) {
	if r.Episode {
		return e.store.PinEpisode(ctx, e.acct, r.ID, pinned)
	}
	return e.store.PinStatement(ctx, e.acct, r.ID, pinned)
}

// NotesView is what `cairn notes` lists.
type NotesView struct {
	Notes    []memory.Statement `json:"notes"`
	Episodes []memory.Episode   `json:"episodes,omitempty"`
	Profile  *memory.Profile    `json:"profile,omitempty"`
}

// Notes lists L1 notes (active, or all), and optionally L2 episodes and L3.
func (e *Engine) Notes(ctx context.Context, all, episodes bool) (NotesView, error) {
	f := memory.StatementFilter{Kinds: []memory.Kind{memory.KindNote}, Evidence: true}
	if !all {
		f.Current = true
	}
	var v NotesView
	var err error
	if v.Notes, err = e.store.Statements(ctx, e.acct, f); err != nil {
		return v, err
	}
	if episodes {
		if v.Episodes, err = e.store.Episodes(ctx, e.acct, all, 200); err != nil {
			return v, err
		}
	}
	p, ok, err := e.store.Profile(ctx, e.acct)
	if err != nil {
		return v, err
	}
	if ok {
		v.Profile = &p
	}
	return v, nil
}
