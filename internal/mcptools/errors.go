package mcptools

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-memory/cairn/internal/memory"
)

// errorPrefix is the MCP edge's one table from error code to what an
// agent is told: enough to fix the call, or to carry on without memory.
var errorPrefix = map[memory.Code]string{
	memory.CodeInvalid:      "invalid call: ",
	memory.CodeNotFound:     "not found: ",
	memory.CodeConflict:     "conflict: ",
	memory.CodeUnauthorized: "not allowed: ",
	memory.CodeUnavailable:  "memory is unavailable right now, carry on without it: ",
	memory.CodeInternal:     "",
}

// toolError words err for the agent. Internal errors are logged in full
// and shown briefly; the others carry a message written for the caller.
func (s *server) toolError(ctx context.Context, tool string, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%s was cancelled", tool)
	}
	code := memory.ErrorCode(err)
	msg := memory.ErrorMessage(err)
	if code == memory.CodeInternal || msg == "" {
		s.log.Error("tool failed", "tool", tool, "code", string(code), "error", err.Error())
		return fmt.Errorf("cairn failed inside %s (details are in its log); carry on without memory for now", tool)
	}
	prefix, ok := errorPrefix[code]
	if !ok {
		prefix = string(code) + ": "
	}
	return errors.New(prefix + msg)
}

// invalidf builds the error for a bad argument: what to fix, in words.
func invalidf(format string, args ...any) error {
	return memory.Errorf(memory.CodeInvalid, format, args...)
}

// notFoundf builds the error for a ref that names nothing an agent may see.
func notFoundf(format string, args ...any) error {
	return memory.Errorf(memory.CodeNotFound, format, args...)
}
