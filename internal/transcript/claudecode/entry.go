package claudecode

import (
	"strconv"
	"strings"
	"time"
)

// entry is one line of the conversation tree, in file order, with its
// message content decoded once.
type entry struct {
	rec    *record
	key    string // the line's uuid, or a stand-in no parent can name
	parent string
	at     time.Time
	text   string  // string content
	blocks []block // block content
	isText bool    // content was a string
	user   userLine
}

// userKind sorts user lines by what they mean for turns.
type userKind uint8

const (
	userNone    userKind = iota // not a user line
	userMeta                    // isMeta: harness or hook context
	userSummary                 // isCompactSummary
	userCarrier                 // carries tool results
	userPrompt                  // the human's own words: starts a turn
	userCommand                 // a slash command: starts a turn if answered
	userNoise                   // only harness noise or an interruption note
)

// userLine is what a user line holds once harness noise is removed.
type userLine struct {
	kind        userKind
	text        string // the human's words, cleaned
	command     string // "/name args" for a slash command
	images      int
	interrupted bool // an interruption note
	marked      bool // cairn's marker appeared in the raw text
	readReplay  bool // an isMeta replay of a Read (an @file mention)
}

// startsTurn reports whether the line opens a turn (or would, for a
// command); a side branch holding one was abandoned by a rewind.
func (u userLine) startsTurn() bool {
	return u.kind == userPrompt || u.kind == userCommand
}

// newEntry decodes the message content of a conversational line.
func newEntry(rec *record, line int) *entry {
	e := &entry{rec: rec, key: rec.UUID, parent: rec.parentKey(), at: rec.time()}
	if e.key == "" {
		// NUL cannot occur in a decoded uuid that a parent names.
		e.key = "\x00line" + strconv.Itoa(line)
	}
	if m := rec.Message; m != nil {
		e.text, e.blocks, e.isText = m.text, m.blocks, m.isText
		m.text, m.blocks = "", nil // the entry holds them now
	}
	if rec.Type == "user" {
		e.user = classify(e)
	}
	return e
}

// classify decides what a user line means.
func classify(e *entry) userLine {
	var raw []string
	if e.isText {
		raw = append(raw, e.text)
	}
	carrier := false
	images := 0
	for _, b := range e.blocks {
		switch b.Type {
		case "text":
			raw = append(raw, b.Text)
		case "tool_result":
			carrier = true
		case "image":
			images++
		}
	}
	var u userLine
	for _, s := range raw {
		if hasMarker(s) {
			u.marked = true
		}
	}
	switch {
	case e.rec.IsMeta:
		u.kind = userMeta
		for _, s := range raw {
			if strings.Contains(s, "Called the Read tool") {
				u.readReplay = true
			}
		}
		return u
	case e.rec.IsCompactSummary:
		u.kind = userSummary
		u.text = cleanTool(strings.Join(raw, "\n"))
		return u
	}
	var texts []string
	for _, s := range raw {
		t, cmd, intr := cleanHuman(s)
		if intr {
			u.interrupted = true
		}
		if cmd != "" && u.command == "" {
			u.command = cmd
		}
		if t != "" {
			texts = append(texts, t)
		}
	}
	u.text = strings.Join(texts, "\n")
	u.images = images
	switch {
	case carrier:
		u.kind = userCarrier
	case u.text != "" || images > 0:
		u.kind = userPrompt
	case u.command != "":
		u.kind = userCommand
	default:
		u.kind = userNoise
	}
	return u
}
