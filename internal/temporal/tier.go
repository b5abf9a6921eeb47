package temporal

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// ceiling is the highest tier each writer may claim.
var ceiling = map[memory.Writer]memory.Tier{
	memory.WriterUser:    memory.TierAsserted,
	memory.WriterCLI:     memory.TierAsserted,
	memory.WriterUI:      memory.TierAsserted,
	memory.WriterVault:   memory.TierAsserted,
	memory.WriterCapture: memory.TierAsserted,
	memory.WriterTool:    memory.TierObserved,
	memory.WriterAgent:   memory.TierAsserted,
	memory.WriterModel:   memory.TierInferred,
}

// TierRequest is what a write says about who wrote it.
type TierRequest struct {
	Writer memory.Writer
	// Channel is how the write arrived when that differs from the source
	// (a person's words relayed by an agent's call, say); the lower of
	// the two ceilings wins. Empty: same as Writer.
	Channel memory.Writer
	// Declared is the tier the writer claims; DeclaredSet says whether it
	// claimed one at all (an agent that claims nothing gets no tier).
	Declared    memory.Tier
	DeclaredSet bool
	// Value and UserText check a claim of asserted: the value must be in
	// the user's own words.
	Value, UserText string
}

// ResolveTier sets a statement's tier from its writer, never its text:
// the writer's ceiling, lowered by the channel's, lowered by the declared
// tier; an agent's write that declares no tier gets none (stored, never
// sent to a model); a claim of asserted whose value is not in the user's
// own message drops to inferred.
func ResolveTier(r TierRequest) memory.Tier {
	if r.Writer == memory.WriterAgent && !r.DeclaredSet {
		return memory.TierNone // silence is not an assertion
	}
	t := ceiling[r.Writer]
	if r.Channel != "" && r.Channel != r.Writer {
		t = lower(t, ceiling[r.Channel])
	}
	if r.DeclaredSet {
		t = lower(t, r.Declared)
	}
	if t == memory.TierAsserted && needsWords(r.Writer, r.Channel) && !InWords(r.Value, r.UserText) {
		t = memory.TierInferred
	}
	return t
}

// needsWords: writers that relay what a user said must show it in the
// user's words; people writing through cairn's own tools are the user.
func needsWords(w, ch memory.Writer) bool {
	return w == memory.WriterAgent || ch == memory.WriterAgent || w == memory.WriterCapture || w == memory.WriterUser
}

func lower(a, b memory.Tier) memory.Tier {
	if b.Rank() < a.Rank() {
		return b
	}
	return a
}

// InWords reports whether value appears in the user's text, ignoring case
// and runs of whitespace and punctuation at the edges.
func InWords(value, userText string) bool {
	v := normalizeWords(value)
	if v == "" {
		return false
	}
	return strings.Contains(normalizeWords(userText), v)
}

func normalizeWords(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.Trim(s, " .,;:!?\"'`()[]{}。，；：！？“”‘’（）")
}
