package vault

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Tools are the file tools a consolidation model is given: read, write,
// list and search, confined to the vault. Every path comes from the model
// and is treated as hostile. A refused path returns an error (whose text is
// safe to hand back to the model: it names only the relative path) and is
// reported through the log function; nothing outside the root is touched.
// Results are plain text for a tool reply.
type Tools struct {
	v   *Vault
	log func(msg string)

	MaxRead    int // bytes a Read may return; larger files are refused
	MaxWrite   int // bytes a Write may store
	MaxList    int // files a List shows
	MaxMatches int // lines a Search shows
}

// Default bounds of Tools, sized for a model's context rather than disk.
const (
	DefaultToolRead    = 256 << 10
	DefaultToolWrite   = 256 << 10
	DefaultToolList    = 500
	DefaultToolMatches = 50
)

// Tools returns the model file tools for this vault. log receives one line
// per refused path; nil discards them.
func (v *Vault) Tools(log func(msg string)) *Tools {
	if log == nil {
		log = func(string) {}
	}
	return &Tools{v: v, log: log, MaxRead: DefaultToolRead, MaxWrite: DefaultToolWrite, MaxList: DefaultToolList, MaxMatches: DefaultToolMatches}
}

// refused logs err when it is a path refusal and returns it unchanged.
func (t *Tools) refused(op string, err error) error {
	if errors.Is(err, ErrUnsafePath) {
		t.log(fmt.Sprintf("vault: refused model %s: %v", op, err))
	}
	return err
}

// Read returns the text of one file.
func (t *Tools) Read(ctx context.Context, path string) (string, error) {
	rel, err := t.v.resolve(path, false)
	if err != nil {
		return "", t.refused("read", err)
	}
	fi, err := t.v.dir.Lstat(rel)
	if err != nil {
		return "", errPath("vault read", rel, err)
	}
	if fi.IsDir() {
		return "", memory.Errorf(memory.CodeInvalid, "%s is a directory; use list", rel)
	}
	if fi.Size() > int64(t.MaxRead) {
		return "", memory.Errorf(memory.CodeInvalid, "%s is %d bytes; the read limit is %d", rel, fi.Size(), t.MaxRead)
	}
	data, err := t.v.Read(ctx, rel)
	if err != nil {
		return "", t.refused("read", err)
	}
	if len(data) > t.MaxRead {
		return "", memory.Errorf(memory.CodeInvalid, "%s is %d bytes; the read limit is %d", rel, len(data), t.MaxRead)
	}
	if isBinary(data) {
		return "", memory.Errorf(memory.CodeInvalid, "%s is a binary file", rel)
	}
	return string(data), nil
}

// Write replaces one file with content, creating folders as needed.
func (t *Tools) Write(ctx context.Context, path, content string) (string, error) {
	if len(content) > t.MaxWrite {
		return "", memory.Errorf(memory.CodeInvalid, "content is %d bytes; the write limit is %d", len(content), t.MaxWrite)
	}
	if strings.IndexByte(content, 0) >= 0 {
		return "", memory.Errorf(memory.CodeInvalid, "content contains a NUL byte; the vault holds text")
	}
	rel, err := cleanPath(path, false)
	if err != nil {
		return "", t.refused("write", err)
	}
	if err := t.v.Write(ctx, rel, []byte(content)); err != nil {
		return "", t.refused("write", err)
	}
	return fmt.Sprintf("wrote %d bytes to %s", len(content), rel), nil
}

// List shows the files under dir ("" for the whole vault), one per line
// with its size.
func (t *Tools) List(ctx context.Context, dir string) (string, error) {
	files, err := t.v.List(ctx, dir)
	if err != nil {
		return "", t.refused("list", err)
	}
	if len(files) == 0 {
		return "(no files)\n", nil
	}
	var b strings.Builder
	for i, f := range files {
		if i == t.MaxList {
			fmt.Fprintf(&b, "(%d more files not shown; list a folder)\n", len(files)-i)
			break
		}
		fmt.Fprintf(&b, "%s\t%d bytes\n", f.Path, f.Size)
	}
	return b.String(), nil
}

// Search finds query literally, ignoring case, in every text file and
// shows path:line: text for each matching line.
func (t *Tools) Search(ctx context.Context, query string) (string, error) {
	matches, err := t.v.Grep(ctx, query, GrepOptions{Max: t.MaxMatches + 1})
	if err != nil {
		return "", err
	}
	if len(matches) == 0 {
		return "(no matches)\n", nil
	}
	var b strings.Builder
	for i, m := range matches {
		if i == t.MaxMatches {
			b.WriteString("(more matches not shown; search for something narrower)\n")
			break
		}
		fmt.Fprintf(&b, "%s:%d: %s\n", m.Path, m.Line, m.Text)
	}
	return b.String(), nil
}
