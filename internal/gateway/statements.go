package gateway

import (
	"net/http"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

func (s *Server) assert(w http.ResponseWriter, r *http.Request, c *call) error {
	var b WriteBody
	if err := decode(r, &b); err != nil {
		return err
	}
	if b.Writer == "" {
		b.Writer = memory.WriterCLI
	}
	s.places.learn(c.token.Account, b.Place)
	res, err := c.eng.Write(r.Context(), b.write())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, res)
	return nil
}

func (s *Server) factQuery(w http.ResponseWriter, r *http.Request, c *call) error {
	var b FactQueryBody
	if err := decode(r, &b); err != nil {
		return err
	}
	v, err := c.eng.Facts(r.Context(), b.query())
	if err != nil {
		return err
	}
	v.Current, v.Recent = nonNil(v.Current), nonNil(v.Recent)
	writeJSON(w, http.StatusOK, v)
	return nil
}

func clockOf(s string) (temporal.Clock, error) {
	if s == "" {
		return temporal.World, nil
	}
	return temporal.ParseClock(s)
}

func (s *Server) timeline(w http.ResponseWriter, r *http.Request, c *call) error {
	var b FactQueryBody
	if err := decode(r, &b); err != nil {
		return err
	}
	clock, err := clockOf(b.Clock)
	if err != nil {
		return err
	}
	sts, err := c.eng.Timeline(r.Context(), b.query(), clock, b.Since, b.Until)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nonNil(sts))
	return nil
}

func (s *Server) asOf(w http.ResponseWriter, r *http.Request, c *call) error {
	var b FactQueryBody
	if err := decode(r, &b); err != nil {
		return err
	}
	if b.At.IsZero() {
		return memory.Errorf(memory.CodeInvalid, "as-of needs a moment: give \"at\" as an RFC 3339 time")
	}
	clock, err := clockOf(b.Clock)
	if err != nil {
		return err
	}
	sts, err := c.eng.AsOf(r.Context(), b.query(), b.At, clock)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nonNil(sts))
	return nil
}

func (s *Server) statement(w http.ResponseWriter, r *http.Request, c *call) error {
	id, err := idParam(r, "id")
	if err != nil {
		return err
	}
	st, err := c.eng.Statement(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, st)
	return nil
}

func (s *Server) retract(w http.ResponseWriter, r *http.Request, c *call) error {
	id, err := idParam(r, "id")
	if err != nil {
		return err
	}
	st, err := c.eng.Retract(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, st)
	return nil
}

// move places a statement at another rung of a place's ladder.
func (s *Server) move(w http.ResponseWriter, r *http.Request, c *call) error {
	id, err := idParam(r, "id")
	if err != nil {
		return err
	}
	var b MoveBody
	if err := decode(r, &b); err != nil {
		return err
	}
	p, err := s.placeOf(c, b.Place, b.Cwd, "a move")
	if err != nil {
		return err
	}
	st, err := c.eng.MoveFact(r.Context(), id, *p, b.Rung)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, st)
	return nil
}

func (s *Server) reopen(w http.ResponseWriter, r *http.Request, c *call) error {
	id, err := idParam(r, "id")
	if err != nil {
		return err
	}
	st, err := c.eng.Reopen(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, st)
	return nil
}
