package distill

import (
	"slices"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Pipeline versions (seed 001): V1 keeps a raw memory and maintains
// MEMORY.md, skills and the summary; V2 keeps only a bounded recap and
// maintains only the summary.
const (
	V1 = "v1"
	V2 = "v2"
)

// maxKeywords bounds an extraction's search keywords.
const maxKeywords = 8

// ExtractInput is one finished session and what capture already made of
// it.
type ExtractInput struct {
	// Session with its turns and parts, already redacted.
	Session memory.Session
	// Episodes are the session's L2 turn summaries.
	Episodes []memory.Episode
	// Statements are the L1 rows whose evidence points into the session:
	// the user's notes, facts, and tool events (commits, pushes, edited
	// files, errors). Rows without a tier are ignored.
	Statements []memory.Statement
	// Version is V1 or V2; anything else is read as V1.
	Version string
}

// Extract is phase 1 without a model: one session in, one extraction out.
// A session with no user rule, no decision, no fact, no commit or edit and
// no error or fix (small talk, a one-off question) gives Empty: true and
// empty texts, which is a valid outcome. V1 fills the raw memory and a
// detailed recap; V2 a bounded task history and no raw memory. The caller
// sets ID, CreatedAt and the usage fields.
func Extract(in ExtractInput) memory.Extraction {
	s := in.Session
	version := V1
	if in.Version == V2 {
		version = V2
	}
	x := memory.Extraction{
		SessionID: s.ID, SessionRef: s.ExternalID, Provider: s.Provider, Place: s.Place,
		Version: version, SessionAt: sessionEnd(s),
	}
	st := newStmtView(in.Statements)
	tr := newTrace(withEpisodes(s, in.Episodes), st)
	for _, e := range in.Episodes {
		for _, f := range e.Files {
			tr.addFile(f)
		}
	}
	if !hasSignal(tr) {
		x.Empty = true
		return x
	}
	x.Task = taskOf(tr)
	x.TaskGroup = taskGroup(tr)
	x.Keywords = keywords(tr, x.Task, maxKeywords)
	o, why := outcomeOf(tr)
	x.Outcome = o
	x.Slug = slug(s, x.Task)
	x.Statements = restsOn(st)
	if version == V2 {
		x.Summary = recapV2(tr, x.Task, o, why)
		return x
	}
	x.RawMemory = buildRaw(tr).render(frontmatter{
		session: s.ExternalID, provider: string(s.Provider), task: x.Task, group: x.TaskGroup,
		cwd: firstNonEmpty(s.Cwd, s.Place.Worktree), outcome: o, keywords: x.Keywords,
	})
	x.Summary = recapV1(tr, x.Task, x.TaskGroup, o, why)
	return x
}

// hasSignal is the minimum-signal gate: will a future agent act better for
// what this session could teach?
func hasSignal(tr *trace) bool {
	return len(tr.st.rules) > 0 || len(tr.st.facts) > 0 || len(tr.st.commits) > 0 || len(tr.st.edits) > 0 ||
		len(tr.commits) > 0 || len(tr.files) > 0 || len(tr.failures) > 0 || actionErrors(tr) > 0
}

// actionErrors counts tool_error statements that no run of the session
// explains (the parts were not loaded, say).
func actionErrors(tr *trace) int {
	if len(tr.runs) > 0 {
		return 0
	}
	return len(tr.st.errs)
}

// withEpisodes fills in a turn's request and outcome from its episode when
// the turn came without them.
func withEpisodes(s memory.Session, eps []memory.Episode) memory.Session {
	if len(eps) == 0 {
		return s
	}
	if len(s.Turns) == 0 {
		// Only the episodes were loaded: they stand in for the turns.
		for _, e := range eps {
			s.Turns = append(s.Turns, memory.Turn{ID: e.TurnID, Seq: e.TurnSeq, Request: e.Request, Outcome: e.Outcome, Status: e.Status})
		}
		return s
	}
	s.Turns = slices.Clone(s.Turns)
	for i := range s.Turns {
		t := &s.Turns[i]
		for _, e := range eps {
			if e.TurnID != 0 && e.TurnID == t.ID || e.TurnID == 0 && e.TurnSeq == t.Seq {
				if t.Request == "" {
					t.Request = e.Request
				}
				if t.Outcome == "" {
					t.Outcome = e.Outcome
				}
				if t.Status == "" {
					t.Status = e.Status
				}
			}
		}
	}
	return s
}

// restsOn lists the statements an extraction rests on, by id.
func restsOn(st stmtView) []int64 {
	var ids []int64
	for _, s := range st.all {
		if !ephemeral[s.Predicate] {
			ids = append(ids, s.ID)
		}
	}
	return ids
}
