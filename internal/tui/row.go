package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/rank"
)

// row is one line of a list and what the detail pane shows for it.
type row struct {
	// ref is the id as engine.ParseRef reads it (12, f12, e3, p7, l1), so
	// the engine's own messages explain why a raw part or the profile
	// cannot be changed.
	ref     string
	label   string // the id as the list shows it
	layer   memory.Layer
	text    string // one line
	meta    string // the dim column at the right
	pinned  bool
	current bool   // false: forgotten, retracted or otherwise taken back
	state   string // current, forgotten, retracted, capped …
	hit     bool   // a search hit: score is set
	score   float64
	fields  []field // the detail pane, in order
	body    string  // the full text, under the fields
}

type field struct{ name, value string }

// clock formats times in one zone; the view has no clock of its own.
type clock struct{ loc *time.Location }

func (c clock) at(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(c.loc).Format("2006-01-02 15:04 MST")
}

func (c clock) day(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(c.loc).Format("2006-01-02")
}

func noteRow(s memory.Statement, c clock) row {
	r := row{ref: fmt.Sprint(s.ID), label: fmt.Sprintf("#%d", s.ID), layer: memory.L1, text: oneLine(statementText(s)),
		pinned: s.Pinned, current: s.Current(), state: statementState(s), body: statementText(s)}
	kind := "note"
	if s.Kind != memory.KindNote {
		r.ref, r.label, kind = fmt.Sprintf("f%d", s.ID), fmt.Sprintf("f%d", s.ID), string(s.Kind)
	}
	r.meta = join(" · ", string(s.Class), s.Category, string(s.Scope.Rung))
	r.fields = []field{
		{"id", r.label}, {"layer", "L1 " + kind},
		{"class", orDash(string(s.Class))}, {"category", orDash(s.Category)},
		{"place", scopeText(s.Scope)}, {"tier", orDash(string(s.Tier))},
		{"writer", orDash(string(s.Writer))}, {"valid_at", c.at(s.ValidAt)},
		{"pinned", yesNo(s.Pinned)}, {"state", r.state},
		{"evidence", evidenceText(s.Evidence)},
	}
	return r
}

func episodeRow(e memory.Episode, c clock) row {
	r := row{ref: fmt.Sprintf("e%d", e.ID), label: fmt.Sprintf("e%d", e.ID), layer: memory.L2,
		text: oneLine(orElse(e.Summary, e.Request)), meta: join(" · ", c.day(e.At), string(e.Status)),
		pinned: e.Pinned, current: e.ExpiredAt.IsZero()}
	r.state = "current"
	if !r.current {
		r.state = orElse(string(e.Reason), "closed")
	}
	r.fields = []field{
		{"id", r.label}, {"layer", "L2 episode"},
		{"status", orDash(string(e.Status))}, {"place", orDash(e.Place.Worktree)},
		{"at", c.at(e.At)}, {"pinned", yesNo(e.Pinned)},
		{"state", r.state}, {"evidence", turnText(e.SessionRef, e.SessionID, e.TurnSeq) + fmt.Sprintf(", parts %d–%d", e.FirstPart, e.LastPart)},
	}
	if len(e.Files) > 0 {
		r.fields = append(r.fields, field{"files", strings.Join(e.Files, " ")})
	}
	r.body = "request: " + e.Request + "\noutcome: " + e.Outcome
	return r
}

func profileRow(p memory.Profile, c clock) row {
	src := make([]string, len(p.Sources))
	for i, id := range p.Sources {
		src[i] = fmt.Sprintf("#%d", id)
	}
	return row{ref: fmt.Sprintf("l%d", p.ID), label: "L3", layer: memory.L3, text: oneLine(p.Body), current: true,
		state: "current", meta: "from " + count(len(p.Sources), "note"), body: p.Body,
		fields: []field{
			{"id", fmt.Sprintf("L3 (profile %d)", p.ID)}, {"layer", "L3 profile"},
			{"built_at", c.at(p.BuiltAt)}, {"sources", orDash(strings.Join(src, " "))},
			{"state", "inspect only: built from your notes"},
		}}
}

// hitRow is a search hit; an L1 hit shows its statement.
func hitRow(h rank.Scored, c clock) row {
	var r row
	switch {
	case h.Layer == memory.L1 && h.Statement != nil:
		r = noteRow(*h.Statement, c)
	case h.Layer == memory.L2:
		r = row{ref: fmt.Sprintf("e%d", h.ID), label: fmt.Sprintf("e%d", h.ID), current: true,
			fields: []field{{"id", fmt.Sprintf("e%d", h.ID)}, {"layer", "L2 episode"}}}
	case h.Layer == memory.L3:
		r = row{ref: fmt.Sprintf("l%d", h.ID), label: "L3", current: true,
			fields: []field{{"id", "L3"}, {"layer", "L3 profile"}, {"state", "inspect only: built from your notes"}}}
	case h.Layer == memory.L0:
		r = row{ref: fmt.Sprintf("p%d", h.ID), label: fmt.Sprintf("p%d", h.ID), current: true,
			fields: []field{{"id", fmt.Sprintf("p%d", h.ID)}, {"layer", "L0 raw part"},
				{"role", join(" ", string(h.Role), string(h.Kind), h.Tool)}, {"state", "inspect only: raw transcript"}}}
	default:
		r = row{ref: fmt.Sprint(h.ID), label: fmt.Sprintf("#%d", h.ID), current: true,
			fields: []field{{"id", fmt.Sprintf("#%d", h.ID)}, {"layer", string(h.Layer)}}}
	}
	r.layer, r.hit, r.score = h.Layer, true, h.Score
	r.pinned = r.pinned || h.Pinned
	r.text, r.body = oneLine(h.Text), h.Text
	if h.Statement != nil {
		r.text, r.body = oneLine(statementText(*h.Statement)), statementText(*h.Statement)
	}
	r.meta = join(" · ", r.meta, c.day(h.Time))
	if h.Statement == nil {
		r.fields = append(r.fields, field{"at", c.at(h.Time)}, field{"place", orDash(h.Worktree)}, field{"pinned", yesNo(h.Pinned)},
			field{"evidence", turnText(h.SessionRef, h.SessionID, h.TurnSeq) + partText(h.PartSeq)})
	}
	r.fields = append(r.fields, field{"score", fmt.Sprintf("%.3f (rank %.3f, lexical %.3f, weight %.2f)", h.Score, h.RankScore, h.Lexical, h.Weight)})
	return r
}

func statementText(s memory.Statement) string {
	if s.Kind == memory.KindNote || s.Predicate == "" {
		return s.Object
	}
	return join(" ", s.Subject, s.Predicate) + ": " + s.Object
}

func statementState(s memory.Statement) string {
	switch {
	case s.Current():
		return "current"
	case s.Reason != "":
		return string(s.Reason)
	}
	return "closed"
}

func scopeText(s memory.Scope) string {
	if s.Rung == memory.RungNone {
		return "unplaced (seen everywhere)"
	}
	if s.Rung == memory.RungEverywhere {
		return "everywhere"
	}
	return join(" ", string(s.Rung), s.Key)
}

// evidenceText names where a statement came from: the session and turn,
// or the source when a person wrote it.
func evidenceText(ev []memory.Evidence) string {
	if len(ev) == 0 {
		return "—"
	}
	var out []string
	for _, e := range ev {
		s := e.Source
		if e.SessionID != 0 || e.SessionRef != "" {
			s = join(" ", turnText(e.SessionRef, e.SessionID, e.TurnSeq)+partText(e.PartSeq), paren(e.Source))
		}
		out = append(out, s)
	}
	if len(out) > 2 {
		out = append(out[:2], fmt.Sprintf("and %d more", len(out)-2))
	}
	return strings.Join(out, "; ")
}

func turnText(ref string, id int64, seq int) string {
	s := "session " + orElse(ref, fmt.Sprintf("#%d", id))
	if seq > 0 {
		s += fmt.Sprintf(", turn %d", seq)
	}
	return s
}

func partText(seq int) string {
	if seq <= 0 {
		return ""
	}
	return fmt.Sprintf(", part %d", seq)
}

// oneLine folds every run of white space, newlines too, into one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// join joins the non-empty strings.
func join(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

func orElse(s, alt string) string {
	if strings.TrimSpace(s) == "" {
		return alt
	}
	return s
}

func orDash(s string) string { return orElse(s, "—") }

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
