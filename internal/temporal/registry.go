package temporal

import (
	"sort"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// manyValued lists predicates that hold many current values: symmetric and
// collection-like relations. Anything else holds one.
var manyValued = map[string]bool{
	"uses": true, "use": true, "likes": true, "knows": true, "works_with": true, "collaborates_with": true,
	"depends_on": true, "related_to": true, "member_of": true, "speaks": true, "owns": true,
	"has": true, "contains": true, "tags": true, "supports": true, "maintains": true, "reviewed_by": true,
	"edited_file": true, "committed": true, "pushed": true, "opened_pr": true, "delegated_task": true, "tool_error": true,
}

// sessionState lists predicates whose closed rows the block shows as
// ✗ INVALID history: what someone was doing or had decided.
var sessionState = map[string]bool{
	"decided": true, "working_on": true, "current_ticket": true, "current_task": true, "current_branch": true,
	"blocked_on": true, "next_step": true, "focus": true, "plan": true,
}

// narrowCategories can never be placed wider than a project: they name
// things of one machine or one clone.
var narrowCategories = map[string]bool{
	"env": true, "git": true, "cwd": true, "file": true, "path": true, "sandbox": true, "port": true,
	"process": true, "branch": true, "command": true, "dependency": true, "host": true, "url": true,
	"secret": true, "credential": true, "database_url": true, "docker": true, "container": true,
}

// Cardinality decides how many values a slot holds: the writer's
// declaration first, then the kind (events and notes accumulate), then the
// registry; anything else holds one.
func Cardinality(kind memory.Kind, predicate string, declared memory.Cardinality) memory.Cardinality {
	if declared == memory.One || declared == memory.Many {
		return declared
	}
	if kind == memory.KindEvent || kind == memory.KindNote {
		return memory.Many
	}
	if manyValued[predicate] {
		return memory.Many
	}
	return memory.One
}

// SessionState reports whether a predicate's history belongs in the block
// as ✗ INVALID lines.
func SessionState(predicate string) bool { return sessionState[predicate] }

// NarrowCategory reports whether a category is capped at the project rung.
func NarrowCategory(category string) bool {
	return narrowCategories[strings.ToLower(strings.TrimSpace(category))]
}

// SessionStatePredicates lists the session-state predicates, sorted.
func SessionStatePredicates() []string {
	out := make([]string, 0, len(sessionState))
	for p := range sessionState {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// AreSessionStatePredicates reports whether preds are exactly the
// session-state predicates, in any order: the stores keep indexes for
// reads of that set.
func AreSessionStatePredicates(preds []string) bool {
	if len(preds) != len(sessionState) {
		return false
	}
	seen := map[string]bool{}
	for _, p := range preds {
		if !sessionState[p] || seen[p] {
			return false
		}
		seen[p] = true
	}
	return true
}
