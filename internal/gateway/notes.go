package gateway

import (
	"net/http"

	"github.com/cairn-memory/cairn/internal/memory"
)

func (s *Server) remember(w http.ResponseWriter, r *http.Request, c *call) error {
	var b NoteBody
	if err := decode(r, &b); err != nil {
		return err
	}
	p, err := s.placeOf(c, b.Place, b.Cwd, "a note")
	if err != nil {
		return err
	}
	res, err := c.eng.RememberAt(r.Context(), b.Text, b.Category, b.Class, b.Pin, *p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, res)
	return nil
}

func (s *Server) rememberLater(w http.ResponseWriter, r *http.Request, c *call) error {
	var b WriteBody
	if err := decode(r, &b); err != nil {
		return err
	}
	s.places.learn(c.token.Account, b.Place)
	id, err := c.eng.RememberLater(r.Context(), b.write())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, PendingAnswer{ID: id})
	return nil
}

func (s *Server) notes(w http.ResponseWriter, r *http.Request, c *call) error {
	q := r.URL.Query()
	v, err := c.eng.Notes(r.Context(), boolParam(q.Get("all")), boolParam(q.Get("episodes")))
	if err != nil {
		return err
	}
	v.Notes = nonNil(v.Notes)
	writeJSON(w, http.StatusOK, v)
	return nil
}

// changeNote forgets, undoes, pins, unpins or edits one note or episode.
func (s *Server) changeNote(w http.ResponseWriter, r *http.Request, c *call) error {
	ref, err := refParam(r)
	if err != nil {
		return err
	}
	var row any
	ctx := r.Context()
	switch r.PathValue("change") {
	case "forget":
		row, err = c.eng.Forget(ctx, ref)
	case "undo":
		row, err = c.eng.Undo(ctx, ref)
	case "pin":
		row, err = c.eng.Pin(ctx, ref, true)
	case "unpin":
		row, err = c.eng.Pin(ctx, ref, false)
	case "edit":
		var b EditBody
		if err := decode(r, &b); err != nil {
			return err
		}
		if ref.Episode {
			return memory.Errorf(memory.CodeInvalid, "episodes are not edited: forget it, or remember a note")
		}
		row, err = c.eng.EditNote(ctx, ref.ID, b.Text)
	default:
		return memory.Errorf(memory.CodeNotFound, "no change %q: use forget, undo, pin, unpin or edit", r.PathValue("change"))
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, row)
	return nil
}

func (s *Server) episode(w http.ResponseWriter, r *http.Request, c *call) error {
	id, err := idParam(r, "id")
	if err != nil {
		return err
	}
	ep, err := c.eng.Episode(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ep)
	return nil
}

func (s *Server) part(w http.ResponseWriter, r *http.Request, c *call) error {
	id, err := idParam(r, "id")
	if err != nil {
		return err
	}
	m, err := c.eng.Part(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, m)
	return nil
}

// placeOf is the place a write names, or the one the gateway resolves for
// its directory; the account's resolver learns it either way.
func (s *Server) placeOf(c *call, p *memory.Place, cwd, what string) (*memory.Place, error) {
	if p == nil {
		if cwd == "" {
			return nil, memory.Errorf(memory.CodeInvalid, "%s needs a place: give \"place\" or \"cwd\"", what)
		}
		pl, err := c.eng.Place(cwd)
		if err != nil {
			return nil, err
		}
		p = &pl
	}
	s.places.learn(c.token.Account, p)
	return p, nil
}
