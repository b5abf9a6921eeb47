package webui

import (
	"net/http"

	"github.com/cairn-memory/cairn/internal/engine"
)

type costsData struct {
	Days   int
	Report engine.CostReport
}

func (s *Server) costsPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	d := costsData{Days: atoiDefault(r.URL.Query().Get("days"), 30)}
	l := s.frame(ctx, v, "Costs", "costs")
	rep, err := v.eng.Costs(ctx, s.o.Now().AddDate(0, 0, -d.Days))
	if err != nil {
		return err
	}
	d.Report = rep
	s.pages.render(w, "costs", l, d)
	return nil
}
