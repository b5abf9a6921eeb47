package app

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
	"github.com/cairn-memory/cairn/internal/transcript/opencode"
)

// OpenCode sources that are not files. The host's store is the host's
// (seed 001): by default cairn asks the `opencode` CLI to export each
// session; reading opencode.db directly happens only when the user asks
// for it with --opencode-db, and then read-only.
const (
	openCodeCLI     = "opencode-cli:"             // + a project directory: list its sessions with the CLI
	openCodeSession = "opencode-session:"         // + a session id: export it with the CLI
	openCodeDB      = transcript.OpenCodeDBPrefix // + a database path: read it directly, read-only
)

func openCodeReader() reader {
	return reader{
		provider: memory.ProviderOpenCode,
		root: func() string {
			wd, _ := os.Getwd()
			return openCodeCLI + wd
		},
		discover: discoverOpenCode,
		sniff:    opencode.Sniff,
		read:     readOpenCode,
	}
}

func discoverOpenCode(ctx context.Context, root string) ([]string, error) {
	switch {
	case strings.HasPrefix(root, openCodeCLI):
		refs, err := opencode.ListSessions(ctx, "", strings.TrimPrefix(root, openCodeCLI))
		if err != nil {
			return nil, err
		}
		out := make([]string, 0, len(refs))
		for _, r := range refs {
			out = append(out, openCodeSession+r.ID)
		}
		return out, nil
	case strings.HasPrefix(root, openCodeSession), strings.HasPrefix(root, openCodeDB):
		return []string{root}, nil
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		if strings.HasPrefix(root, "ses_") && !strings.ContainsAny(root, "/\\") {
			return []string{openCodeSession + root}, nil
		}
		return nil, nil
	}
	// A directory: the legacy storage tree, or a folder of export files.
	for _, d := range []string{root, filepath.Join(root, "storage")} {
		if fi, err := os.Stat(filepath.Join(d, "session")); err == nil && fi.IsDir() {
			return []string{d}, nil
		}
	}
	matches, err := filepath.Glob(filepath.Join(root, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range matches {
		if head, err := readHead(m); err == nil && opencode.Sniff(head) {
			out = append(out, m)
		}
	}
	return out, nil
}

func readOpenCode(ctx context.Context, source string) (transcript.Result, error) {
	switch {
	case strings.HasPrefix(source, openCodeSession):
		return opencode.ExportSession(ctx, "", strings.TrimPrefix(source, openCodeSession))
	case strings.HasPrefix(source, openCodeDB):
		return opencode.ReadDB(ctx, strings.TrimPrefix(source, openCodeDB))
	}
	fi, err := os.Stat(source)
	if err != nil {
		return transcript.Result{}, memory.Errorf(memory.CodeInvalid, "%s is neither a file nor an OpenCode session id", source)
	}
	if fi.IsDir() {
		return opencode.ParseStorage(ctx, source)
	}
	f, err := os.Open(source)
	if err != nil {
		return transcript.Result{}, err
	}
	defer f.Close()
	res, err := opencode.ParseExport(f)
	if err == nil {
		res.Files = []transcript.File{{Path: source, Size: fi.Size(), ModTime: fi.ModTime()}}
	}
	return res, err
}

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 4096)
	n, err := io.ReadFull(f, b)
	if n > 0 {
		err = nil
	}
	return b[:n], err
}
