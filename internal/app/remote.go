package app

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/remote"
	"github.com/cairn-memory/cairn/internal/transcript"
	"github.com/cairn-memory/cairn/internal/transcript/codex"
	"github.com/cairn-memory/cairn/internal/transcript/opencode"
	"github.com/klauspost/compress/zstd"
)

// remotePlan finds, on this machine, the transcripts an import names, as
// a local import would (the same readers, default locations and format
// sniffing), and makes each an upload for the gateway.
func remotePlan(readers []engine.Reader, resolve engine.PlaceResolver) remote.Planner {
	return func(ctx context.Context, req engine.ImportRequest) ([]remote.Upload, error) {
		var rs []engine.Reader
		for _, r := range readers {
			if req.Provider == "" || r.Provider() == req.Provider {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			return nil, memory.Errorf(memory.CodeInvalid, "no importer for %q; use claude-code, codex or opencode", req.Provider)
		}
		paths := req.Paths
		if len(paths) == 0 {
			if req.Provider == "" {
				return nil, memory.Errorf(memory.CodeInvalid, "nothing to import: name files or directories, or a client (--claude-code, --codex, --opencode)")
			}
			paths = []string{rs[0].DefaultRoot()}
		}
		var out []remote.Upload
		for _, p := range paths {
			srcs, err := sources(ctx, rs, p, req.Provider)
			if err != nil {
				return nil, err
			}
			for _, s := range srcs {
				out = append(out, uploadOf(s.reader, s.source, resolve))
			}
		}
		return out, nil
	}
}

type source struct {
	reader engine.Reader
	source string
}

// sources expands one path into the sources it holds, each with its
// reader: a directory is discovered by every reader (keeping what each
// recognizes), a file is sniffed, and a name that is not a file is left to
// the one reader named (an OpenCode session id, or its CLI listing).
func sources(ctx context.Context, rs []engine.Reader, p string, provider memory.Provider) ([]source, error) {
	fi, err := os.Stat(p)
	if err != nil && len(rs) == 1 {
		srcs, derr := rs[0].Discover(ctx, p)
		if derr != nil {
			return nil, memory.Wrap(memory.CodeInvalid, "discover "+string(rs[0].Provider())+" sessions", derr)
		}
		if len(srcs) == 0 {
			srcs = []string{p}
		}
		out := make([]source, 0, len(srcs))
		for _, s := range srcs {
			out = append(out, source{rs[0], s})
		}
		return out, nil
	}
	if err != nil {
		return nil, memory.Errorf(memory.CodeInvalid, "cannot import %s: %v", p, err)
	}
	if !fi.IsDir() {
		for _, r := range rs {
			if len(rs) == 1 || sniffFile(r, p) {
				return []source{{r, p}}, nil
			}
		}
		return nil, memory.Errorf(memory.CodeInvalid, "%s is not a transcript cairn recognizes (Claude Code or Codex JSONL, an OpenCode export); name the client with --claude-code, --codex or --opencode", p)
	}
	var out []source
	for _, r := range rs {
		srcs, err := r.Discover(ctx, p)
		if err != nil {
			return nil, memory.Wrap(memory.CodeInvalid, "discover "+string(r.Provider())+" sessions in "+p, err)
		}
		for _, s := range srcs {
			if len(rs) > 1 && !sniffFile(r, s) {
				continue
			}
			out = append(out, source{r, s})
		}
	}
	if len(out) == 0 && provider != "" {
		return nil, memory.Errorf(memory.CodeNotFound, "no %s sessions found under %s", provider, p)
	}
	return out, nil
}

func sniffFile(r engine.Reader, path string) bool {
	head, err := readHead(path)
	if err != nil {
		_, statErr := os.Stat(path)
		return statErr != nil // not a file: an id the reader gave itself
	}
	return r.Sniff(head)
}

// uploadOf reads one source for the gateway: a Claude Code or Codex file
// as it is on disk (a compressed Codex rollout decompressed, since uploads
// are text), an OpenCode session as `opencode export` prints it. The
// places of the sessions' directories are resolved here, where the
// checkouts are.
func uploadOf(r engine.Reader, src string, resolve engine.PlaceResolver) remote.Upload {
	p := r.Provider()
	u := remote.Upload{Provider: p, Source: src, Name: filepath.Base(src)}
	if p != memory.ProviderOpenCode {
		u.Read = func(ctx context.Context) ([]byte, []memory.Place, error) {
			b, err := readPlain(src)
			if err != nil {
				return nil, nil, err
			}
			res, err := r.Read(ctx, src)
			if err != nil {
				return nil, nil, err
			}
			return b, placesOf(res, resolve), nil
		}
		u.Name = strings.TrimSuffix(u.Name, ".zst")
		return u
	}
	u.Read = func(ctx context.Context) ([]byte, []memory.Place, error) {
		var b []byte
		var err error
		switch {
		case strings.HasPrefix(src, openCodeSession):
			id := strings.TrimPrefix(src, openCodeSession)
			b, err = opencode.ExportJSON(ctx, "", id)
		case strings.HasPrefix(src, openCodeDB):
			err = memory.Errorf(memory.CodeInvalid, "OpenCode's database is not uploaded to a gateway; import with --opencode, which exports each session")
		default:
			if fi, serr := os.Stat(src); serr == nil && fi.IsDir() {
				err = memory.Errorf(memory.CodeInvalid, "OpenCode's storage folder %s is not uploaded to a gateway; import with --opencode, which exports each session", src)
			} else {
				b, err = os.ReadFile(src)
			}
		}
		if err != nil {
			return nil, nil, err
		}
		res, err := opencode.ParseExport(bytes.NewReader(b))
		if err != nil {
			return nil, nil, memory.Wrap(memory.CodeInvalid, src+" is not an OpenCode export", err)
		}
		return b, placesOf(res, resolve), nil
	}
	if id, ok := strings.CutPrefix(src, openCodeSession); ok {
		u.Source, u.Name = "opencode session "+id, id+".json"
	}
	return u
}

// readPlain reads a transcript file, decompressing a zstd one.
func readPlain(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !codex.IsZstd(b) {
		return b, err
	}
	dec, err := zstd.NewReader(bytes.NewReader(b), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	return io.ReadAll(io.LimitReader(dec, 64<<20+1))
}

// placesOf resolves the directory of every session in res.
func placesOf(res transcript.Result, resolve engine.PlaceResolver) []memory.Place {
	seen := map[string]bool{}
	var out []memory.Place
	for _, s := range res.Sessions {
		if s.Cwd == "" || seen[s.Cwd] {
			continue
		}
		seen[s.Cwd] = true
		if p, err := resolve(s.Cwd); err == nil && p.Worktree != "" {
			out = append(out, p)
		}
	}
	return out
}

// remoteClient is the gateway client for CAIRN_URL and CAIRN_TOKEN.
func remoteClient(u, tok, stateDir string) (*remote.Client, error) {
	return remote.New(remote.Options{URL: u, Token: tok, Resolve: places.Resolve, Plan: remotePlan(readers(), places.Resolve), StateDir: stateDir})
}
