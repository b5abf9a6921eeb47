package mcptools

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// VaultReader is what the tools read of the memory files; an engine
// without them answers unavailable.
type VaultReader interface {
	VaultRead(ctx context.Context, path string) (string, error)
	VaultList(ctx context.Context, dir string) ([]string, error)
	VaultGrep(ctx context.Context, pattern string, regex bool, limit int) ([]engine.VaultMatch, error)
}

// maxFileChars bounds one file an agent reads: the summary and MEMORY.md
// are meant to be read whole; a bigger file is cut with a note.
const maxFileChars = 60000

// fileHits bounds the memory-file lines a search adds.
const fileHits = 5

// FileHit is a line of a memory file a search matched.
type FileHit struct {
	Path string `json:"path" jsonschema:"the file, for memory_read"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// isFilePath tells a memory file's path from a ref: refs never hold a
// dot or a slash.
func isFilePath(s string) bool {
	return strings.ContainsAny(s, "./")
}

func (s *server) readFile(ctx context.Context, path string) (string, ReadOutput, error) {
	out := ReadOutput{Ref: path, Kind: "file"}
	body, err := s.eng.VaultRead(ctx, path)
	if err != nil {
		return "", out, err
	}
	cut := ""
	if len(body) > maxFileChars {
		body, cut = body[:maxFileChars], fmt.Sprintf("\n[cut at %d characters]\n", maxFileChars)
	}
	out.File = &FileView{Path: path, Text: body, Truncated: cut != ""}
	return untrustedLabel + "\n" + path + ":\n" + body + cut, out, nil
}

// FileView is a memory file as memory_read returns it.
type FileView struct {
	Path      string `json:"path"`
	Text      string `json:"text"`
	Truncated bool   `json:"truncated,omitempty"`
}

func (s *server) listFiles(ctx context.Context) (string, ListOutput, error) {
	paths, err := s.eng.VaultList(ctx, "")
	if err != nil {
		return "", ListOutput{}, err
	}
	out := ListOutput{Files: paths}
	var b strings.Builder
	b.WriteString(untrustedLabel + "\nmemory files (read one with memory_read and its path):\n")
	for _, p := range paths {
		b.WriteString("- " + p + "\n")
	}
	if len(paths) == 0 {
		b.WriteString("(none yet: the files appear after the first consolidation)\n")
	}
	return b.String(), out, nil
}

// searchFiles finds lines of the memory files holding the query's most
// informative words. A cairn without memory files adds nothing.
func (s *server) searchFiles(ctx context.Context, q string) []FileHit {
	terms := text.QueryTerms(q, 4, nil)
	if len(terms) == 0 {
		return nil
	}
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = regexp.QuoteMeta(t)
	}
	ms, err := s.eng.VaultGrep(ctx, "(?i)"+strings.Join(quoted, "|"), true, fileHits)
	if err != nil {
		if memory.ErrorCode(err) != memory.CodeUnavailable {
			s.log.Error("memory files search", "err", err)
		}
		return nil
	}
	out := make([]FileHit, 0, len(ms))
	for _, m := range ms {
		out = append(out, FileHit{Path: m.Path, Line: m.Line, Text: clip(m.Text, 300)})
	}
	return out
}
