package gateway

import (
	"net/http"

	"github.com/cairn-memory/cairn/internal/mcptools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpHandler serves the MCP tools over streamable HTTP with the same
// tokens as /v1/. It is stateless: each request builds a server over its
// own token's engine, so no MCP session id can carry one account's engine
// into another account's request.
func (s *Server) mcpHandler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		c, _ := r.Context().Value(callKey{}).(*call)
		if c == nil {
			return nil // unreachable: auth runs first
		}
		return mcptools.NewServer(c.eng, mcptools.Options{Version: s.o.Version, Logger: s.log})
	}, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	return s.auth(s.o.MaxBody, s.o.Timeout, func(w http.ResponseWriter, r *http.Request, c *call) error {
		r = r.WithContext(withCall(r.Context(), c))
		h.ServeHTTP(w, r)
		return nil
	})
}
