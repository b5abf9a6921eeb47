package webui

import (
	"net/http"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
)

type costsData struct {
	Days   int
	Report engine.CostReport
	// Off says why no calls are recorded here (a gateway's store keeps
	// none: its engines run without a model).
	Off string
}

func (s *Server) costsPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	d := costsData{Days: atoiDefault(r.URL.Query().Get("days"), 30)}
	l := s.frame(ctx, v, "Costs", "costs")
	rep, err := v.eng.Costs(ctx, s.o.Now().AddDate(0, 0, -d.Days))
	if memory.IsCode(err, memory.CodeUnavailable) {
		d.Off = message(err) + ": cairn uses no model here, so there is nothing to cost."
		s.pages.render(w, "costs", l, d)
		return nil
	}
	if err != nil {
		return err
	}
	d.Report = rep
	s.pages.render(w, "costs", l, d)
	return nil
}
