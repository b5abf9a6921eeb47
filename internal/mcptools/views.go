package mcptools

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
)

// Row is a note or fact as lists and timelines show it: what it says,
// where it applies, and both clocks.
type Row struct {
	Ref        string    `json:"ref" jsonschema:"the row's ref: n12 for a note, f3 for a fact"`
	Kind       string    `json:"kind" jsonschema:"note, fact or event"`
	Text       string    `json:"text" jsonschema:"what it says, on one line (bounded; memory_read shows it whole)"`
	Subject    string    `json:"subject,omitempty"`
	Predicate  string    `json:"predicate,omitempty"`
	Class      string    `json:"class,omitempty"`
	Category   string    `json:"category,omitempty"`
	Tier       string    `json:"tier" jsonschema:"asserted (the user's words), observed (seen happen) or inferred (a guess to verify)"`
	Scope      string    `json:"scope,omitempty" jsonschema:"the rung it is placed at: worktree, project, repo or everywhere"`
	Pinned     bool      `json:"pinned,omitempty"`
	State      string    `json:"state" jsonschema:"current, superseded, retracted, closed, ..."`
	ValidAt    time.Time `json:"valid_at" jsonschema:"world clock: when it became true"`
	InvalidAt  time.Time `json:"invalid_at,omitzero" jsonschema:"world clock: when it stopped being true"`
	CreatedAt  time.Time `json:"created_at" jsonschema:"system clock: when cairn learned it"`
	ExpiredAt  time.Time `json:"expired_at,omitzero" jsonschema:"system clock: when cairn stopped holding it as current"`
	ReplacedBy string    `json:"replaced_by,omitempty" jsonschema:"the ref of the row that replaced it"`
}

// StatementView is a note or fact read in full, with its evidence.
type StatementView struct {
	Row
	Object      string         `json:"object" jsonschema:"the full value"`
	Cardinality string         `json:"cardinality,omitempty" jsonschema:"one: a new value replaces the old; many: values accumulate"`
	Writer      string         `json:"writer"`
	Place       string         `json:"place,omitempty" jsonschema:"the worktree, project or repo it is placed at"`
	Confidence  float64        `json:"confidence"`
	Reason      string         `json:"reason,omitempty"`
	UsageCount  int            `json:"usage_count,omitempty"`
	LastUsedAt  time.Time      `json:"last_used_at,omitzero"`
	Evidence    []EvidenceView `json:"evidence,omitempty"`
}

// EvidenceView is where a statement came from.
type EvidenceView struct {
	Source  string `json:"source,omitempty"`
	Session string `json:"session,omitempty" jsonschema:"the client's session id"`
	Turn    int    `json:"turn,omitempty" jsonschema:"the turn's number in its session"`
	Part    int    `json:"part,omitempty"`
	Quote   string `json:"quote,omitempty"`
}

// EpisodeView is one earlier turn, summarized.
type EpisodeView struct {
	Ref      string    `json:"ref"`
	Summary  string    `json:"summary"`
	Request  string    `json:"request,omitempty"`
	Outcome  string    `json:"outcome,omitempty"`
	Status   string    `json:"status"`
	Files    []string  `json:"files,omitempty"`
	Tools    []string  `json:"tools,omitempty"`
	At       time.Time `json:"at"`
	Session  string    `json:"session,omitempty"`
	Turn     int       `json:"turn,omitempty"`
	Worktree string    `json:"worktree,omitempty"`
	State    string    `json:"state"`
	Pinned   bool      `json:"pinned,omitempty"`
}

// PartView is a raw transcript piece with where it sits.
type PartView struct {
	Ref       string    `json:"ref"`
	Text      string    `json:"text"`
	Truncated bool      `json:"truncated,omitempty"`
	Role      string    `json:"role,omitempty"`
	Kind      string    `json:"kind,omitempty"`
	Tool      string    `json:"tool,omitempty"`
	Provider  string    `json:"provider,omitempty"`
	Session   string    `json:"session,omitempty"`
	Turn      int       `json:"turn,omitempty"`
	Part      int       `json:"part,omitempty"`
	At        time.Time `json:"at"`
	Worktree  string    `json:"worktree,omitempty"`
}

// ProfileView is the profile built from the user's notes.
type ProfileView struct {
	Ref     string    `json:"ref"`
	Body    string    `json:"body"`
	Sources []string  `json:"sources,omitempty" jsonschema:"the notes it rests on"`
	BuiltAt time.Time `json:"built_at"`
}

// statementText is a statement on one line, as the memory block words it.
func statementText(s memory.Statement) string {
	switch s.Kind {
	case memory.KindNote:
		return s.Object
	case memory.KindEvent:
		return fmt.Sprintf("%s · %s: %s", s.Subject, s.Predicate, s.Object)
	}
	return fmt.Sprintf("%s · %s = %s", s.Subject, s.Predicate, s.Object)
}

// state names where a row stands on the two clocks.
func state(s memory.Statement) string {
	switch {
	case s.Current():
		return "current"
	case s.Reason != memory.ReasonNone:
		return string(s.Reason)
	case !s.InvalidAt.IsZero():
		return "closed"
	}
	return "expired"
}

func rowOf(s memory.Statement) Row {
	text, _ := oneLine(statementText(s), rowChars)
	r := Row{
		Ref: statementRef(s).String(), Kind: string(s.Kind), Text: text, Subject: s.Subject, Predicate: s.Predicate,
		Class: string(s.Class), Category: s.Category, Tier: string(s.Tier), Scope: string(s.Scope.Rung), Pinned: s.Pinned,
		State: state(s), ValidAt: s.ValidAt, InvalidAt: s.InvalidAt, CreatedAt: s.CreatedAt, ExpiredAt: s.ExpiredAt,
	}
	if s.ReplacedBy != 0 {
		r.ReplacedBy = recall.Ref{Kind: statementRef(s).Kind, ID: s.ReplacedBy}.String()
	}
	return r
}

func statementView(s memory.Statement) StatementView {
	obj, _ := bound(defang.Replace(s.Object), readChars)
	v := StatementView{
		Row: rowOf(s), Object: obj, Cardinality: string(s.Cardinality), Writer: string(s.Writer), Place: s.Scope.Key,
		Confidence: s.Confidence, Reason: string(s.Reason), UsageCount: s.UsageCount, LastUsedAt: s.LastUsedAt,
	}
	for _, e := range s.Evidence {
		q, _ := oneLine(e.Quote, hitChars)
		v.Evidence = append(v.Evidence, EvidenceView{Source: e.Source, Session: e.SessionRef, Turn: e.TurnSeq, Part: e.PartSeq, Quote: q})
	}
	return v
}

func episodeView(e memory.Episode, full bool) EpisodeView {
	limit := rowChars
	if full {
		limit = readChars
	}
	sum, _ := oneLine(e.Summary, limit)
	v := EpisodeView{
		Ref: fmt.Sprintf("e%d", e.ID), Summary: sum, Status: string(e.Status), At: e.At,
		Session: e.SessionRef, Turn: e.TurnSeq, Worktree: e.Place.Worktree, State: "current", Pinned: e.Pinned,
	}
	if e.Reason != memory.ReasonNone {
		v.State = string(e.Reason)
	} else if !e.ExpiredAt.IsZero() {
		v.State = "expired"
	}
	if full {
		v.Request, _ = bound(defang.Replace(e.Request), readChars)
		v.Outcome, _ = bound(defang.Replace(e.Outcome), readChars)
		v.Files, v.Tools = e.Files, e.Tools
	}
	return v
}

func partView(m memory.Match) PartView {
	text, cut := bound(defang.Replace(m.Text), readChars)
	return PartView{
		Ref: fmt.Sprintf("p%d", m.ID), Text: text, Truncated: cut, Role: string(m.Role), Kind: string(m.Kind), Tool: m.Tool,
		Provider: string(m.Provider), Session: m.SessionRef, Turn: m.TurnSeq, Part: m.PartSeq, At: m.Time, Worktree: m.Worktree,
	}
}

func profileView(p memory.Profile) ProfileView {
	body, _ := bound(defang.Replace(p.Body), readChars)
	v := ProfileView{Ref: fmt.Sprintf("l%d", p.ID), Body: body, BuiltAt: p.BuiltAt}
	for _, id := range p.Sources {
		v.Sources = append(v.Sources, fmt.Sprintf("n%d", id))
	}
	return v
}

// rowLine renders a row for a model to read.
func rowLine(r Row) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s", r.Ref, r.Text)
	var tags []string
	if r.Kind == string(memory.KindNote) {
		tags = append(tags, nonEmpty(r.Class, "note"))
	} else {
		tags = append(tags, "valid "+stamp(r.ValidAt)+untilText(r.InvalidAt))
	}
	tags = append(tags, nonEmpty(r.Tier, "untiered"))
	if r.State != "current" {
		tags = append(tags, r.State)
	}
	if r.Pinned {
		tags = append(tags, "pinned")
	}
	fmt.Fprintf(&b, " (%s)", strings.Join(tags, "; "))
	return b.String()
}

func untilText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return " → " + stamp(t)
}

func nonEmpty(s, or string) string {
	if s == "" {
		return or
	}
	return s
}
