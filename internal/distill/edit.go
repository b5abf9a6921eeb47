package distill

import (
	"slices"
	"strconv"
	"strings"
)

// Edits are what a person changed by hand since the last pass, for the
// caller to write into the store. Consolidate already honours them in the
// files it returns.
type Edits struct {
	// Retract lists statements whose line a person deleted (or whose note
	// file under extensions/ad_hoc/notes/ they deleted).
	Retract []int64
	// NewNotes are lines a person added, in their words.
	NewNotes []string
	// Supersede pairs a statement with the text a person changed its line
	// (or note file) to.
	Supersede []Supersession
	// Drop lists keys of generated things a person removed that rest on
	// no statement: "k:1a2b3c4d" for a line, "skill:<name>" for a skill,
	// "r:<slug>" for a recap deleted while its extraction was still
	// selected. The caller keeps them and passes them back in
	// ConsolidateInput.Dropped so they stay out.
	Drop []string
}

// Supersession replaces a statement's text with a person's.
type Supersession struct {
	ID   int64
	Text string
}

// Empty reports whether no edit was found.
func (e Edits) Empty() bool {
	return len(e.Retract) == 0 && len(e.NewNotes) == 0 && len(e.Supersede) == 0 && len(e.Drop) == 0
}

func (e *Edits) retract(id int64) {
	if !slices.Contains(e.Retract, id) && !e.superseded(id) {
		e.Retract = append(e.Retract, id)
	}
}

func (e *Edits) superseded(id int64) bool {
	return slices.ContainsFunc(e.Supersede, func(s Supersession) bool { return s.ID == id })
}

func (e *Edits) note(text string) {
	if text != "" && !slices.Contains(e.NewNotes, text) {
		e.NewNotes = append(e.NewNotes, text)
	}
}

func (e *Edits) drop(key string) {
	if !slices.Contains(e.Drop, key) {
		e.Drop = append(e.Drop, key)
	}
}

// pageEdits is what comparing the last generated page with the one on
// disk found.
type pageEdits struct {
	Edits
	// changed maps an anchor token ("s:7") to the line a person rewrote,
	// kept verbatim in the next page.
	changed map[string]string
	// added are lines a person wrote (or rewrote, for k-lines), kept
	// verbatim in the next page where they put them.
	added []pageLine
}

// detectEdits compares the page as last generated (before) with the page
// on disk (after). Matching is by anchor, not position, so moving a line
// is no edit. A line whose anchor a person removed but whose words stayed
// is no edit either.
func detectEdits(before, after string) pageEdits {
	pe := pageEdits{changed: map[string]string{}}
	if before == after {
		return pe
	}
	bl, al := parsePage(before), parsePage(after)
	bTok, aTok := tokenIndex(bl), tokenIndex(al)
	bNorm := map[string]int{} // every line's words in before, with repeats
	for _, l := range bl {
		if l.kind == lineStated || l.kind == lineText {
			bNorm[norm(l.body)]++
		}
	}
	aText := map[string]bool{} // person lines of after, by words
	for _, l := range al {
		if l.kind == lineText {
			aText[norm(l.body)] = true
		}
	}
	handled := map[int]bool{} // after lines already turned into an edit
	for _, tok := range orderedTokens(bl) {
		b := bl[bTok[tok]]
		ai, ok := aTok[tok]
		kind, val, _ := strings.Cut(tok, ":")
		switch {
		case !ok && aText[norm(b.body)]:
			// the anchor went, the words stayed: regenerated as they were
		case !ok && kind == "s":
			id, _ := strconv.ParseInt(val, 10, 64)
			pe.retract(id)
		case !ok:
			pe.drop(tok)
		case norm(al[ai].body) != norm(b.body):
			a := al[ai]
			if kind == "k" {
				pe.drop(tok)
				if !handled[ai] {
					handled[ai] = true
					pe.note(clean(a.body))
					pe.added = append(pe.added, unanchored(a))
				}
				continue
			}
			id, _ := strconv.ParseInt(val, 10, 64)
			if handled[ai] {
				pe.retract(id) // the rest of a merged line a person rewrote as one
				continue
			}
			handled[ai] = true
			pe.Supersede = append(pe.Supersede, Supersession{ID: id, Text: clean(a.body)})
			pe.changed[tok] = a.raw
		}
	}
	seen := map[string]int{}
	for i, l := range al {
		if handled[i] {
			continue
		}
		known := l.kind == lineStated && slices.ContainsFunc(l.anchor.tokens(), func(t string) bool { _, ok := bTok[t]; return ok })
		if l.kind != lineText && (l.kind != lineStated || known) {
			continue
		}
		n := norm(l.body)
		seen[n]++
		if seen[n] <= bNorm[n] || n == "" {
			continue // it was there before: carried, not new
		}
		pe.note(clean(l.body))
		pe.added = append(pe.added, unanchored(l))
	}
	return pe
}

// unanchored is a person's line without an anchor that names nothing
// generated any more, so that it is kept as their words until the note
// written from it comes back with an anchor of its own.
func unanchored(l pageLine) pageLine {
	if l.kind == lineStated {
		l.raw = l.body
	}
	l.kind = lineText
	return l
}

// tokenIndex maps each anchor token to the first line holding it.
func tokenIndex(ls []pageLine) map[string]int {
	m := map[string]int{}
	for i, l := range ls {
		if l.kind != lineStated {
			continue
		}
		for _, t := range l.anchor.tokens() {
			if _, ok := m[t]; !ok {
				m[t] = i
			}
		}
	}
	return m
}

// orderedTokens lists the anchor tokens of a page in page order, once.
func orderedTokens(ls []pageLine) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range ls {
		if l.kind != lineStated {
			continue
		}
		for _, t := range l.anchor.tokens() {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// noteFile reads a note published under extensions/ad_hoc/notes/: the
// statements it names (anchors in it, an "id:" frontmatter field, or a
// file name that starts with the id, as in "12.md", "n12.md" or
// "12-use-pnpm.md") and its words.
func noteFile(path string, content []byte) (ids []int64, words string) {
	body := string(content)
	if rest, ok := strings.CutPrefix(body, "---\n"); ok {
		if fm, after, ok := strings.Cut(rest, "\n---"); ok {
			body = strings.TrimPrefix(after, "\n")
			for line := range strings.Lines(fm) {
				if v, ok := strings.CutPrefix(strings.TrimSpace(line), "id:"); ok {
					if id, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(v), "\"'n"), 10, 64); err == nil && id > 0 {
						ids = append(ids, id)
					}
				}
			}
		}
	}
	var parts []string
	for _, l := range parsePage(body) {
		if l.kind == lineStated {
			for _, id := range l.anchor.IDs {
				if !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
		if l.kind == lineStated || l.kind == lineText {
			if c := clean(l.body); c != "" {
				parts = append(parts, c)
			}
		}
	}
	base := strings.TrimPrefix(lastElem(path), "n")
	end := 0
	for end < len(base) && base[end] >= '0' && base[end] <= '9' {
		end++
	}
	if end > 0 && (end == len(base) || base[end] == '.' || base[end] == '-' || base[end] == '_') {
		if id, err := strconv.ParseInt(base[:end], 10, 64); err == nil && id > 0 && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, strings.Join(parts, " ")
}

// noteEdits turns changes to note files into edits: a deleted note is
// retracted, a changed one superseded, and a note file a person added
// without an id becomes a new note.
func noteEdits(cs changeSet, e *Edits) {
	paths := make([]string, 0, len(cs))
	for p := range cs {
		if strings.HasPrefix(p, notesDir) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		c := cs[p]
		switch c.Kind {
		case Deleted:
			ids, _ := noteFile(p, c.Before)
			for _, id := range ids {
				e.retract(id)
			}
		case Modified:
			ids, before := noteFile(p, c.Before)
			_, after := noteFile(p, c.After)
			if len(ids) == 0 || before == after {
				if len(ids) == 0 && after != before {
					e.note(after)
				}
				continue
			}
			if after == "" {
				for _, id := range ids {
					e.retract(id)
				}
				continue
			}
			e.Supersede = append(e.Supersede, Supersession{ID: ids[0], Text: after})
			for _, id := range ids[1:] {
				e.retract(id)
			}
		case Added:
			if ids, words := noteFile(p, c.After); len(ids) == 0 {
				e.note(words)
			}
		}
	}
}

// NoteIDs returns the statement ids a note file under
// extensions/ad_hoc/notes/ names: in its front matter, its anchors, or
// its file name.
func NoteIDs(path string, content []byte) []int64 {
	ids, _ := noteFile(path, content)
	return ids
}
