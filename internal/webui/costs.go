package webui

import (
	"net/http"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

type costsData struct {
	Days   int
	Report engine.CostReport
	// Off says why there is nothing to show (a store that keeps no
	// record of model calls).
	Off string
}

func (s *Server) costsPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	d := costsData{Days: atoiDefault(r.URL.Query().Get("days"), 30)}
	l := s.frame(ctx, v, "Costs", "costs")
	rep, err := v.eng.Costs(ctx, s.o.Now().AddDate(0, 0, -d.Days))
	if memory.IsCode(err, memory.CodeUnavailable) {
		d.Off = message(err)
		err = nil
	}
	if err != nil {
		return err
	}
	d.Report = rep
	s.pages.render(w, "costs", l, d)
	return nil
}
