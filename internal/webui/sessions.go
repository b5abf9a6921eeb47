package webui

import (
	"net/http"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
)

type sessionsData struct {
	Sessions []memory.SessionSummary
}

func (s *Server) sessionsPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	ss, err := v.eng.Sessions(ctx, atoiDefault(r.URL.Query().Get("limit"), 100))
	if err != nil {
		return err
	}
	s.pages.render(w, "sessions", s.frame(ctx, v, "Sessions", "sessions"), sessionsData{Sessions: ss})
	return nil
}

// sessionData is one session: its turns, each with the receipts of what
// memory it was shown, and the session's preset.
type sessionData struct {
	Session memory.Session
	Preset  string
	Presets []presetOpt
	Turns   []turnView
	// Loose are receipts tied to no stored turn (a session's standing
	// block, or turns not imported yet).
	Loose []memory.Receipt
	Back  string
}

type turnView struct {
	memory.Turn
	Receipts []memory.Receipt
}

type presetOpt struct {
	Value, Label string
}

// presetOpts are the four presets of seed 000 and the default.
var presetOpts = []presetOpt{
	{"", "default (the global switches)"},
	{string(recall.PresetMemoryOn), "memory on: recall and learn"},
	{string(recall.PresetRecallOnly), "recall only: learn nothing from this session"},
	{string(recall.PresetLearnOnly), "learn only: show the agent nothing"},
	{string(recall.PresetPrivate), "private: no recall, nothing stored"},
}

func (s *Server) sessionPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	sess, err := v.eng.Session(ctx, r.PathValue("id"))
	if err != nil {
		return err
	}
	d := sessionData{Session: sess, Presets: presetOpts, Back: r.URL.RequestURI()}
	p, err := v.eng.SessionPolicy(ctx, sess.Provider, sess.ExternalID)
	if err != nil {
		return err
	}
	d.Preset = string(p)
	rs, err := v.eng.Receipts(ctx, sess.Provider, sess.ExternalID, 1000)
	if err != nil {
		return err
	}
	byTurn := map[int64][]memory.Receipt{}
	for _, rc := range rs {
		if rc.TurnID != 0 {
			byTurn[rc.TurnID] = append(byTurn[rc.TurnID], rc)
		}
	}
	for _, t := range sess.Turns {
		d.Turns = append(d.Turns, turnView{Turn: t, Receipts: byTurn[t.ID]})
		delete(byTurn, t.ID)
	}
	for _, rc := range rs {
		if _, unmatched := byTurn[rc.TurnID]; rc.TurnID == 0 || unmatched {
			d.Loose = append(d.Loose, rc)
		}
	}
	s.pages.render(w, "session", s.frame(ctx, v, "Session "+clip(sess.ExternalID, 12), "sessions"), d)
	return nil
}

func (s *Server) setPreset(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	sess, err := v.eng.Session(ctx, r.PathValue("id"))
	if err != nil {
		return s.done(w, r, v, "", err)
	}
	p, err := v.eng.SetSessionPreset(ctx, sess.Provider, sess.ExternalID, r.PostForm.Get("preset"))
	label := string(p)
	if label == "" {
		label = "default"
	}
	return s.done(w, r, v, "session "+clip(sess.ExternalID, 12)+" now uses the "+label+" preset", err)
}
