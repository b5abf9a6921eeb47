package mcptools

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/recall"
)

// refForms is what every message about a bad ref says.
const refForms = "use a ref as search results show it: n12 (note), f3 (fact), e4 (episode), p123 (raw transcript part) or l1 (profile)"

// parseRef reads a ref as an agent may echo it: "n12", "F3", "#12",
// "[e4]", or a bare number (a note or fact).
func parseRef(s string) (recall.Ref, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "["), "]")
	if t == "" {
		return recall.Ref{}, invalidf("ref is empty: %s", refForms)
	}
	if t[0] >= '0' && t[0] <= '9' {
		t = "#" + t
	}
	r, ok := recall.ParseRef(t)
	if !ok {
		return recall.Ref{}, invalidf("%q is not a memory ref: %s", clip(s, 40), refForms)
	}
	return r, nil
}

// kindOf names what a ref points at.
func kindOf(r recall.Ref) string {
	switch r.Kind {
	case 'n':
		return "note"
	case 'f':
		return "fact"
	case 'e':
		return "episode"
	case 'p':
		return "part"
	case 'l':
		return "profile"
	}
	return "row"
}

// statementRef is the ref a statement is shown under: notes are n, facts
// and events f, as in the memory block.
func statementRef(s memory.Statement) recall.Ref {
	if s.Kind == memory.KindNote {
		return recall.Ref{Kind: 'n', ID: s.ID}
	}
	return recall.Ref{Kind: 'f', ID: s.ID}
}

// shownToAgents reports whether a statement may reach a model: an
// untiered row is stored but never sent, and a forgotten one was taken
// out of agents' sight by a person.
func shownToAgents(s memory.Statement) bool {
	return s.Tier != memory.TierNone && s.Reason != memory.ReasonForgotten
}
