package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// guard keeps one bad request from taking the server down. Arguments
// sent as null read as none: the SDK (v1.8.0) panics filling schema
// defaults into a null object. Any other panic below becomes an error for
// that request alone, logged in full.
func (s *server) guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("panic while handling a request", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				res, err = nil, fmt.Errorf("cairn failed handling %s (details are in its log)", method)
			}
		}()
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && p != nil {
			if a := bytes.TrimSpace(p.Arguments); len(a) == 0 || bytes.Equal(a, []byte("null")) {
				p.Arguments = json.RawMessage("{}")
			}
		}
		return next(ctx, method, req)
	}
}
