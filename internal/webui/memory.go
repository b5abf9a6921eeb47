package webui

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/rank"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// memoryData is the Memory screen: the layers, filtered, or a search.
type memoryData struct {
	Query, Layer, Category, Place string
	All                           bool
	Places                        []placeOpt
	Categories                    []string
	Hits                          []rank.Scored
	Searched                      bool
	Notes                         []memory.Statement
	Episodes                      []memory.Episode
	Profile                       *memory.Profile
	Back                          string
}

func (s *Server) memoryPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	q := r.URL.Query()
	d := memoryData{Query: strings.TrimSpace(q.Get("q")), Layer: q.Get("layer"), Category: q.Get("category"),
		Place: q.Get("place"), All: q.Get("all") == "1", Back: r.URL.RequestURI()}
	places, err := knownPlaces(ctx, v.eng)
	if err != nil {
		return err
	}
	d.Places = places
	place, placed := pickPlace(places, d.Place)
	if d.Query != "" {
		d.Searched = true
		req := engine.SearchRequest{Query: d.Query, Rung: memory.RungEverywhere, Limit: 30, Place: &place}
		if !placed && len(places) > 0 {
			// Raw and episode layers read every place at the widest
			// rung; the newest place lends its ladder to the notes.
			req.Place = &places[0].Place
		}
		if l, ok := layerOf(d.Layer); ok {
			req.Layers = []memory.Layer{l}
		}
		res, err := v.eng.Search(ctx, req)
		if err != nil {
			return err
		}
		d.Hits = res.Hits
	}
	nv, err := v.eng.Notes(ctx, d.All, true)
	if err != nil {
		return err
	}
	cats := map[string]bool{}
	for _, n := range nv.Notes {
		if n.Category != "" {
			cats[n.Category] = true
		}
		if d.Category != "" && n.Category != d.Category {
			continue
		}
		if placed && !temporal.Visible(n.Scope, place, memory.RungEverywhere) {
			continue
		}
		d.Notes = append(d.Notes, n)
	}
	for c := range cats {
		d.Categories = append(d.Categories, c)
	}
	slices.Sort(d.Categories)
	for _, e := range nv.Episodes {
		if (placed && e.Place.Worktree != place.Worktree) || (!d.All && !e.ExpiredAt.IsZero()) {
			continue
		}
		d.Episodes = append(d.Episodes, e)
	}
	d.Profile = nv.Profile
	s.pages.render(w, "memory", s.frame(ctx, v, "Memory", "memory"), d)
	return nil
}

func layerOf(s string) (memory.Layer, bool) {
	for _, l := range []memory.Layer{memory.L0, memory.L1, memory.L2, memory.L3} {
		if string(l) == s {
			return l, true
		}
	}
	return "", false
}

func (s *Server) addNote(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	f := r.PostForm
	places, err := knownPlaces(ctx, v.eng)
	if err != nil {
		return err
	}
	place, _ := pickPlace(places, f.Get("place"))
	res, err := v.eng.RememberAt(ctx, f.Get("text"), f.Get("category"), memory.Class(f.Get("class")), f.Get("pin") == "1", place)
	msg := ""
	if err == nil {
		msg = "remembered as note " + strconv.FormatInt(res.Statement.ID, 10)
		if res.Action == "restate" {
			msg = "a note saying this exists already (" + strconv.FormatInt(res.Statement.ID, 10) + "): it was reinforced"
		}
	}
	return s.done(w, r, v, msg, err)
}

func (s *Server) noteAction(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	ref, err := engine.ParseRef(r.PathValue("ref"))
	if err != nil {
		return s.done(w, r, v, "", err)
	}
	name := refName(ref)
	var msg string
	switch r.PathValue("action") {
	case "forget":
		_, err = v.eng.Forget(ctx, ref)
		msg = name + " forgotten: it is no longer recalled (Undo brings it back)"
	case "undo":
		_, err = v.eng.Undo(ctx, ref)
		msg = name + " is back"
	case "pin":
		_, err = v.eng.Pin(ctx, ref, true)
		msg = name + " pinned: it comes first in every block"
	case "unpin":
		_, err = v.eng.Pin(ctx, ref, false)
		msg = name + " unpinned"
	case "edit":
		if ref.Episode {
			return s.done(w, r, v, "", memory.Errorf(memory.CodeInvalid, "episodes are summaries of a turn and are not edited: forget it, or add a note"))
		}
		var st memory.Statement
		st, err = v.eng.EditNote(ctx, ref.ID, r.PostForm.Get("text"))
		msg = name + " edited: the new wording is note " + strconv.FormatInt(st.ID, 10) + ", the old one is kept as history"
	default:
		return memory.Errorf(memory.CodeNotFound, "no action %q: use forget, undo, pin, unpin or edit", r.PathValue("action"))
	}
	return s.done(w, r, v, msg, err)
}

func refName(r engine.Ref) string {
	if r.Episode {
		return "episode e" + strconv.FormatInt(r.ID, 10)
	}
	return "note " + strconv.FormatInt(r.ID, 10)
}
