package vault

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"regexp"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Match is one line of a file that matched a Grep.
type Match struct {
	Path string // slash-separated, relative to the root
	Line int    // 1-based
	Text string // the line, cut to maxMatchText bytes
}

// GrepOptions tunes Grep. The zero value is a case-insensitive literal
// search over the whole vault returning at most DefaultGrepMax matches.
type GrepOptions struct {
	Regex         bool   // pattern is a Go (RE2, linear-time) regular expression
	CaseSensitive bool   // match case exactly
	Dir           string // search only under this folder
	Max           int    // stop after this many matches; 0 means DefaultGrepMax
}

// Bounds of a Grep. Files above maxGrepFile are skipped: the vault holds
// notes, and a huge file is an accident not worth reading on every search.
const (
	DefaultGrepMax = 100
	maxPattern     = 1000
	maxGrepFile    = 4 << 20
	maxMatchText   = 400
	binarySniff    = 8000 // bytes git looks at to call a file binary
)

// Grep returns the lines matching pattern in every text file under
// opts.Dir, in path then line order. Binary files (a NUL byte near the
// start) and .git are skipped. When len(result) == Max there may be more.
func (v *Vault) Grep(ctx context.Context, pattern string, opts GrepOptions) ([]Match, error) {
	const op = "vault grep"
	if pattern == "" {
		return nil, memory.Errorf(memory.CodeInvalid, "search pattern is empty")
	}
	if len(pattern) > maxPattern {
		return nil, memory.Errorf(memory.CodeInvalid, "search pattern is longer than %d bytes", maxPattern)
	}
	expr := pattern
	if !opts.Regex {
		expr = regexp.QuoteMeta(pattern)
	}
	if !opts.CaseSensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, memory.Errorf(memory.CodeInvalid, "search pattern %q is not a valid regular expression: %v", pattern, err)
	}
	limit := opts.Max
	if limit <= 0 {
		limit = DefaultGrepMax
	}
	files, err := v.List(ctx, opts.Dir)
	if err != nil {
		return nil, err
	}
	var out []Match
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.Size > maxGrepFile {
			continue
		}
		data, err := v.dir.ReadFile(f.Path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, memory.Wrap(memory.CodeInternal, op, err)
		}
		if isBinary(data) {
			continue
		}
		for i, line := range bytes.Split(data, []byte{'\n'}) {
			line = bytes.TrimSuffix(line, []byte{'\r'})
			if !re.Match(line) {
				continue
			}
			out = append(out, Match{Path: f.Path, Line: i + 1, Text: cut(string(line), maxMatchText)})
			if len(out) == limit {
				return out, nil
			}
		}
	}
	return out, nil
}

// isBinary uses git's rule: a NUL byte in the first few kilobytes.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0
}

// cut shortens s to at most n bytes without splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
