package capture

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Learnable reports whether a turn may feed the derived layers (notes,
// facts, episodes, profile): it completed, it holds text from the user,
// that text is not a recall question, and, unless learnExternal is set,
// nothing but the user's words and the answer went into it (no MCP, files,
// images, browser, referenced chats, provider tools or recalled memory).
func Learnable(t memory.Turn, learnExternal bool) bool {
	if t.Status != memory.TurnCompleted {
		return false
	}
	req := strings.TrimSpace(memory.StripMarked(t.Request))
	if req == "" || IsRecallQuestion(req) {
		return false
	}
	return learnExternal || !t.Flags.External()
}
