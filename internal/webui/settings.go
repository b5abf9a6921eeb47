package webui

import (
	"net/http"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// setting is one run-time setting as the Settings screen shows it.
type setting struct {
	Key, Label, Help string
	// Kind is how it is edited: bool, number, text or rung.
	Kind  string
	Value string
	// Set says the store holds a value over the configuration file's.
	Set bool
}

// settingKeys are the settings the screen edits, in the order shown.
var settingKeys = []setting{
	{Key: "memory.enabled", Label: "Memory", Help: "the master switch: off means nothing is recalled or learned", Kind: "bool"},
	{Key: "memory.recall", Label: "Recall", Help: "show agents what cairn remembers", Kind: "bool"},
	{Key: "memory.capture", Label: "Learning", Help: "remember new things from sessions", Kind: "bool"},
	{Key: "memory.learn_external", Label: "Learn from external context", Help: "also learn from web pages, files and tool output the agent read, not only from what you said", Kind: "bool"},
	{Key: "recall.every_prompt", Label: "Recall on every prompt", Help: "instead of only the first prompt of a session (breaks prompt caches more often)", Kind: "bool"},
	{Key: "recall.budget_tokens", Label: "Recall budget (tokens)", Help: "the most a recall block may cost", Kind: "number"},
	{Key: "recall.l1_limit", Label: "Notes and facts per block", Kind: "number"},
	{Key: "recall.l2_limit", Label: "Episodes per block", Kind: "number"},
	{Key: "recall.l0_limit", Label: "Excerpts per block", Kind: "number"},
	{Key: "recall.time_zone", Label: "Time zone", Help: "an IANA name such as Europe/Berlin, or Local", Kind: "text"},
	{Key: "temporal.rung_user", Label: "Facts about you apply at", Kind: "rung"},
	{Key: "temporal.rung_preference", Label: "Preferences apply at", Kind: "rung"},
	{Key: "temporal.rung_convention", Label: "Conventions apply at", Kind: "rung"},
	{Key: "temporal.rung_decision", Label: "Decisions apply at", Kind: "rung"},
	{Key: "temporal.rung_environment", Label: "Environment facts apply at", Kind: "rung"},
	{Key: "temporal.rung_task", Label: "Task state applies at", Kind: "rung"},
}

type settingsData struct {
	Settings []setting
	Sessions []memory.SessionSummary
	Presets  map[int64]string
	Options  []presetOpt
}

func (s *Server) settingsPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	cfg, stored, err := v.eng.Effective(ctx)
	if err != nil {
		return err
	}
	d := settingsData{Options: presetOpts, Presets: map[int64]string{}}
	for _, st := range settingKeys {
		st.Value, _ = cfg.Get(st.Key)
		_, st.Set = stored[st.Key]
		d.Settings = append(d.Settings, st)
	}
	if d.Sessions, err = v.eng.Sessions(ctx, 10); err != nil {
		return err
	}
	for _, ss := range d.Sessions {
		p, err := v.eng.SessionPolicy(ctx, ss.Provider, ss.ExternalID)
		if err != nil {
			return err
		}
		d.Presets[ss.ID] = string(p)
	}
	s.pages.render(w, "settings", s.frame(ctx, v, "Settings", "settings"), d)
	return nil
}

// saveSettings writes every setting whose value changed. A checkbox left
// unticked is absent from a form, so each bool is read as on or off.
func (s *Server) saveSettings(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	cfg, _, err := v.eng.Effective(ctx)
	if err != nil {
		return err
	}
	var changed []string
	for _, st := range settingKeys {
		want := strings.TrimSpace(r.PostForm.Get(st.Key))
		if st.Kind == "bool" {
			want = "false"
			if r.PostForm.Get(st.Key) == "true" {
				want = "true"
			}
		} else if !r.PostForm.Has(st.Key) {
			continue
		}
		if cur, _ := cfg.Get(st.Key); cur == want {
			continue
		}
		if err := v.eng.SetSetting(ctx, st.Key, want); err != nil {
			return s.done(w, r, v, "", err)
		}
		changed = append(changed, st.Label)
	}
	msg := "nothing changed"
	if len(changed) > 0 {
		msg = "saved: " + strings.Join(changed, ", ")
	}
	return s.done(w, r, v, msg, nil)
}
