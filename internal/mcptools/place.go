package mcptools

//lint:file-ignore SA1019 roots are deprecated from protocol 2026-07-28 on, and still how older clients (Claude Code) say where they run.

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// statelessProtocol is the first protocol version in which a server may
// not ask the client anything mid-call (roots included).
const statelessProtocol = "2026-07-28"

// dir finds the directory a call is about: the call's own cwd, else the
// client's project directory, else the client's first root, else the
// server's working directory.
func (s *server) dir(ctx context.Context, req *mcp.CallToolRequest, cwd string) (string, error) {
	if c := strings.TrimSpace(cwd); c != "" {
		if !filepath.IsAbs(c) {
			return "", invalidf("cwd %q is not an absolute path: give the project's full path, e.g. /home/me/src/app", clip(c, 200))
		}
		return filepath.Clean(c), nil
	}
	if s.opts.ProjectDir != "" {
		return s.opts.ProjectDir, nil
	}
	if d := s.rootDir(ctx, req); d != "" {
		return d, nil
	}
	if s.opts.WorkDir != "" {
		return s.opts.WorkDir, nil
	}
	return "", invalidf("no directory to read memory for: pass cwd, the absolute path of the project you are working in")
}

// rootDir asks the client for its roots and returns the first local one,
// or "" when the client has none, cannot be asked, or does not answer in
// time.
func (s *server) rootDir(ctx context.Context, req *mcp.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	ip := req.Session.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.RootsV2 == nil || ip.ProtocolVersion >= statelessProtocol {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.RootsTimeout)
	defer cancel()
	res, err := req.Session.ListRoots(ctx, nil)
	if err != nil {
		s.log.Warn("roots/list failed", "error", err.Error())
		return ""
	}
	for _, r := range res.Roots {
		if d := rootPath(r.URI); d != "" {
			return d
		}
	}
	return ""
}

// rootPath reads a file:// root as a local directory.
func rootPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" || (u.Host != "" && u.Host != "localhost") {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}
