package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// notesPrefix is the vault folder of published notes.
const notesPrefix = "extensions/ad_hoc/notes/"

// NotePath is where a note is published: named by its id, so editing or
// deleting the file flows back to exactly that row.
func NotePath(id int64) string { return notesPrefix + strconv.FormatInt(id, 10) + ".md" }

// publishedBy reports whether a writer's notes are published as files at
// once: the ones a person or an agent wrote on purpose. Captured notes
// reach the vault through consolidation instead.
func publishedBy(w memory.Writer) bool {
	switch w {
	case memory.WriterCLI, memory.WriterUI, memory.WriterVault, memory.WriterAgent:
		return true
	}
	return false
}

// noteFile renders a note's file: its id and where it applies in front
// matter, then the person's words.
func noteFile(s memory.Statement) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nid: %d\nclass: %s\n", s.ID, s.Class)
	if s.Category != "" {
		fmt.Fprintf(&b, "category: %s\n", s.Category)
	}
	fmt.Fprintf(&b, "scope: %s\nwriter: %s\nwritten: %s\n---\n%s\n", scopeLabel(s.Scope), s.Writer,
		s.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), strings.TrimSpace(s.Object))
	return b.String()
}

func scopeLabel(sc memory.Scope) string {
	if sc.Key == "" {
		return string(sc.Rung)
	}
	return string(sc.Rung) + " " + sc.Key
}

// publishNote writes a note's file into every version in force.
func (e *Engine) publishNote(ctx context.Context, s memory.Statement) error {
	if !e.HasVault() || s.Kind != memory.KindNote || !s.Current() {
		return nil
	}
	vs, err := e.Versions(ctx)
	if err != nil {
		return err
	}
	for _, v := range vs {
		vf, err := e.vault(v)
		if err != nil {
			return err
		}
		if err := writeIfChanged(ctx, vf, NotePath(s.ID), noteFile(s)); err != nil {
			return err
		}
	}
	return nil
}

// removeNoteFiles removes the files that publish a note, in every version
// in force: its own, and any a person wrote naming its id.
func (e *Engine) removeNoteFiles(ctx context.Context, id int64) error {
	if !e.HasVault() {
		return nil
	}
	vs, err := e.Versions(ctx)
	if err != nil {
		return err
	}
	for _, v := range vs {
		vf, err := e.vault(v)
		if err != nil {
			return err
		}
		paths, err := vf.List(ctx, strings.TrimSuffix(notesPrefix, "/"))
		if memory.IsCode(err, memory.CodeNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		for _, p := range paths {
			b, err := vf.Read(ctx, p)
			if err != nil {
				continue
			}
			for _, n := range distill.NoteIDs(p, b) {
				if n == id {
					if err := vf.Remove(ctx, p); err != nil && !memory.IsCode(err, memory.CodeNotFound) {
						return err
					}
					break
				}
			}
		}
	}
	return nil
}

// noteChanged keeps a note's file in step with its row after a write,
// forget, undo or retract. A failure is reported, not returned: the row
// is the truth and is already stored; the next consolidation repairs the
// file.
func (e *Engine) noteChanged(ctx context.Context, s memory.Statement) string {
	if !e.HasVault() || s.Kind != memory.KindNote {
		return ""
	}
	var err error
	if s.Current() {
		if !publishedBy(s.Writer) {
			return ""
		}
		err = e.publishNote(ctx, s)
	} else {
		err = e.removeNoteFiles(ctx, s.ID)
	}
	if err != nil {
		return "the note is stored, but its vault file was not updated: " + err.Error()
	}
	return ""
}
