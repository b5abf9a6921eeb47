package distill

import (
	"slices"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// stmtView sorts the statements a session's extraction may rest on.
// Statements without a tier are never shown to a model, so they are left
// out here and everywhere downstream.
type stmtView struct {
	all     []memory.Statement
	rules   []memory.Statement // notes: the user's preferences, conventions, decisions
	facts   []memory.Statement // facts, the current branch aside
	errs    []memory.Statement // tool_error events
	commits []memory.Statement // committed, pushed, opened_pr events
	edits   []memory.Statement // edited_file events
}

// ephemeral predicates describe a moment, not something to remember.
var ephemeral = map[string]bool{"current_branch": true, "delegated_task": true}

func newStmtView(in []memory.Statement) stmtView {
	var v stmtView
	for _, s := range in {
		if s.Tier == memory.TierNone || !s.Current() || s.Withdrawn() || strings.TrimSpace(s.Object) == "" {
			continue
		}
		v.all = append(v.all, s)
	}
	slices.SortStableFunc(v.all, func(a, b memory.Statement) int { return cmpInt64(a.ID, b.ID) })
	for _, s := range v.all {
		switch {
		case s.Kind == memory.KindNote && s.Class != memory.ClassTask:
			v.rules = append(v.rules, s)
		case s.Kind == memory.KindFact && !ephemeral[s.Predicate]:
			v.facts = append(v.facts, s)
		case s.Predicate == "tool_error":
			v.errs = append(v.errs, s)
		case s.Predicate == "committed" || s.Predicate == "pushed" || s.Predicate == "opened_pr":
			v.commits = append(v.commits, s)
		case s.Predicate == "edited_file":
			v.edits = append(v.edits, s)
		}
	}
	return v
}

// errorAt returns the tool_error statement whose evidence is the run's
// result part, or 0.
func (v stmtView) errorAt(r *run) int64 {
	for _, s := range v.errs {
		for _, e := range s.Evidence {
			sameTurn := e.TurnID != 0 && e.TurnID == r.turnID || e.TurnID == 0 && e.TurnSeq == r.turn
			if sameTurn && (e.PartSeq == r.resultSeq || e.PartSeq == r.callSeq) {
				return s.ID
			}
		}
	}
	return 0
}

// commitFor returns the committed statement naming sha, or 0.
func (v stmtView) commitFor(sha string) int64 {
	for _, s := range v.commits {
		if s.Predicate == "committed" && strings.HasPrefix(s.Object, sha) {
			return s.ID
		}
	}
	return 0
}

// asserted reports whether the user said it in their own words.
func asserted(s memory.Statement) bool { return s.Tier == memory.TierAsserted }

// factText renders a fact the way recall does: "shop · deploy_target = Render".
func factText(s memory.Statement) string {
	if s.Subject == "" && s.Predicate == "" {
		return oneLine(s.Object)
	}
	return oneLine(s.Subject + " · " + s.Predicate + " = " + s.Object)
}

// stmtText is what a statement says on one line.
func stmtText(s memory.Statement) string {
	if s.Kind == memory.KindNote {
		return oneLine(s.Object)
	}
	return factText(s)
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
