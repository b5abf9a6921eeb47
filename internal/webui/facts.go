package webui

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// factsData is the Facts screen: a place's present, its timeline on
// either clock, and the store as it stood at a chosen moment.
type factsData struct {
	Place    string
	Placed   bool
	Places   []placeOpt
	View     engine.FactsView
	Clock    string
	Slot     string // a subject and predicate whose timeline is shown alone
	Timeline []memory.Statement
	AsOfText string
	AsOf     []memory.Statement
	AsOfSet  bool
	Back     string
}

func (s *Server) factsPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	q := r.URL.Query()
	d := factsData{Place: q.Get("place"), Clock: q.Get("clock"), Slot: q.Get("slot"), AsOfText: strings.TrimSpace(q.Get("asof")),
		Back: r.URL.RequestURI()}
	places, err := knownPlaces(ctx, v.eng)
	if err != nil {
		return err
	}
	d.Places = places
	if d.Place == "" && len(places) > 0 && q.Get("all") != "1" && !q.Has("place") {
		d.Place = places[0].Key
	}
	fq := engine.FactQuery{Everywhere: true}
	if p, ok := pickPlace(places, d.Place); ok {
		fq = engine.FactQuery{Place: &p}
		d.Placed = true
	} else {
		d.Place = ""
	}
	if d.View, err = v.eng.Facts(ctx, fq); err != nil {
		return err
	}
	clock := temporal.World
	if d.Clock == string(temporal.System) {
		clock = temporal.System
	} else {
		d.Clock = string(temporal.World)
	}
	tl, err := v.eng.Timeline(ctx, engine.FactQuery{Place: fq.Place, Everywhere: fq.Everywhere,
		Kinds: []memory.Kind{memory.KindFact, memory.KindEvent}}, clock, time.Time{}, time.Time{})
	if err != nil {
		return err
	}
	for _, st := range tl {
		if d.Slot == "" || st.Subject+" "+st.Predicate == d.Slot {
			d.Timeline = append(d.Timeline, st)
		}
	}
	// One frame per page: building it takes the pending outcome message.
	l := s.frame(ctx, v, "Facts", "facts")
	if d.AsOfText != "" {
		at, err := parseWhen(d.AsOfText, l.Zone)
		if err != nil {
			return err
		}
		d.AsOfSet = true
		if d.AsOf, err = v.eng.AsOf(ctx, fq, at, clock); err != nil {
			return err
		}
	}
	s.pages.render(w, "facts", l, d)
	return nil
}

// parseWhen reads a date or a date and time typed in the viewer's zone;
// a bare date means the end of that day.
func parseWhen(s string, zone *time.Location) (time.Time, error) {
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02 15:04", time.RFC3339} {
		if t, err := time.ParseInLocation(layout, s, zone); err == nil {
			return t, nil
		}
	}
	if t, err := time.ParseInLocation("2006-01-02", s, zone); err == nil {
		return t.Add(24*time.Hour - time.Second), nil
	}
	return time.Time{}, memory.Errorf(memory.CodeInvalid, "%q is not a date: write 2026-05-14 or 2026-05-14 09:30", s)
}

func (s *Server) factAction(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return s.done(w, r, v, "", memory.Errorf(memory.CodeInvalid, "%q is not a fact id", r.PathValue("id")))
	}
	name := "fact " + strconv.FormatInt(id, 10)
	var msg string
	switch r.PathValue("action") {
	case "move":
		places, err := knownPlaces(ctx, v.eng)
		if err != nil {
			return err
		}
		p, ok := pickPlace(places, r.PostForm.Get("place"))
		if !ok {
			return s.done(w, r, v, "", memory.Errorf(memory.CodeInvalid, "choose the place whose ladder the fact moves on"))
		}
		rung, err := memory.ParseRung(r.PostForm.Get("rung"))
		if err != nil || rung == memory.RungNone {
			return s.done(w, r, v, "", memory.Errorf(memory.CodeInvalid, "choose a rung: worktree, project, repo or everywhere"))
		}
		var st memory.Statement
		if st, err = v.eng.MoveFact(ctx, id, p, rung); err == nil {
			msg = name + " now applies at " + string(rung) + " (as " + strconv.FormatInt(st.ID, 10) + "): agents there read it from the next turn"
		}
		return s.done(w, r, v, msg, err)
	case "retract":
		_, err = v.eng.Retract(ctx, id)
		msg = name + " retracted: it is history only"
	case "reopen":
		_, err = v.eng.Reopen(ctx, id)
		msg = name + " reopened: it is current again"
	default:
		return memory.Errorf(memory.CodeNotFound, "no action %q: use move, retract or reopen", r.PathValue("action"))
	}
	return s.done(w, r, v, msg, err)
}
