package opencode

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"
)

// exportMessage is one element of an export's messages list.
type exportMessage struct {
	Info  json.RawMessage   `json:"info"`
	Parts []json.RawMessage `json:"parts"`
}

// ParseExport reads the JSON printed by `opencode export <sessionID>`:
// {"info": Session, "messages": [{"info": Message, "parts": [Part…]}…]}.
// It yields one session. A message or part that does not decode is counted
// in Stats and skipped; an export cut off part-way keeps the messages
// before the cut and sets Stats.Pending. Only input that is not a JSON
// object at all is an error.
func ParseExport(r io.Reader) (transcript.Result, error) {
	res, _, err := parseExport(r)
	return res, err
}

// parseExport is ParseExport that also returns the child sessions the
// session's task calls ran.
func parseExport(r io.Reader) (transcript.Result, []string, error) {
	var res transcript.Result
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		return res, nil, memory.Errorf(memory.CodeInvalid, "not an opencode export: expected a JSON object")
	}
	var (
		info      sessionInfo
		msgs      []message
		truncated bool
	)
	st := &res.Stats
	for dec.More() && !truncated {
		tok, err := dec.Token()
		if err != nil {
			truncated = true
			break
		}
		switch key, _ := tok.(string); key {
		case "info":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				truncated = true
				break
			}
			st.Lines++
			switch decodeRecord(raw, &info) {
			case decodedInvalid:
				st.Skip("invalid session info")
			case decodedPartial:
				st.Skip("session field of wrong type")
			}
			res.Stats.Consumed = dec.InputOffset()
		case "messages":
			var ok bool
			msgs, ok = readMessages(dec, st)
			truncated = !ok
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				truncated = true
			}
		}
	}
	if !truncated {
		if _, err := dec.Token(); err != nil {
			truncated = true
		} else {
			res.Stats.Consumed = dec.InputOffset()
		}
	}
	if truncated {
		st.Skip("export cut off")
		st.Pending = true
	}
	s, children, ok := sessionOf(info, msgs, st)
	if ok {
		res.Sessions = append(res.Sessions, s)
	}
	return res, children, nil
}

// readMessages reads the messages list. It returns false when the input
// ended or broke inside it; the messages read so far are kept.
func readMessages(dec *json.Decoder, st *transcript.Stats) ([]message, bool) {
	tok, err := dec.Token()
	if err != nil {
		return nil, false
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		st.Skip("messages is not a list")
		return nil, skipValue(dec, tok) == nil
	}
	var msgs []message
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return msgs, false
		}
		st.Lines++
		if m, ok := decodeExportMessage(raw, st); ok {
			msgs = append(msgs, m)
		}
		st.Consumed = dec.InputOffset()
	}
	if _, err := dec.Token(); err != nil {
		return msgs, false
	}
	return msgs, true
}

func decodeExportMessage(raw []byte, st *transcript.Stats) (message, bool) {
	var em exportMessage
	var m message
	switch decodeRecord(raw, &em) {
	case decodedInvalid:
		st.Skip("invalid message")
		return m, false
	case decodedPartial:
		st.Skip("message field of wrong type")
	}
	if !decodeInfo(em.Info, &m.Info, st) {
		return m, false
	}
	for _, rp := range em.Parts {
		st.Lines++
		if p, ok := decodePart(rp, st); ok {
			m.Parts = append(m.Parts, p)
		}
	}
	return m, true
}

// decodeInfo decodes a message's info, counting what is wrong with it.
func decodeInfo(raw []byte, info *messageInfo, st *transcript.Stats) bool {
	switch decodeRecord(raw, info) {
	case decodedInvalid:
		st.Skip("invalid message")
		return false
	case decodedPartial:
		st.Skip("message field of wrong type")
	}
	if info.Role == "" {
		st.Skip("message without role")
		return false
	}
	return true
}

// decodePart decodes one part, counting what is wrong with it.
func decodePart(raw []byte, st *transcript.Stats) (part, bool) {
	var p part
	switch decodeRecord(raw, &p) {
	case decodedInvalid:
		st.Skip("invalid part")
		return p, false
	case decodedPartial:
		st.Skip("part field of wrong type")
	}
	return p, true
}

// sessionOf builds the session, taking its id from the messages when the
// info lacks it. A session with no id at all is dropped and counted.
func sessionOf(info sessionInfo, msgs []message, st *transcript.Stats) (memory.Session, []string, bool) {
	if info.ID == "" {
		for _, m := range msgs {
			if m.Info.SessionID != "" {
				info.ID = m.Info.SessionID
				break
			}
		}
	}
	if info.ID == "" {
		if len(msgs) > 0 {
			st.Skip("session without id")
		}
		return memory.Session{}, nil, false
	}
	s, children := buildSession(info, msgs, st)
	return s, children, true
}

// skipValue consumes the rest of a value whose first token was read.
func skipValue(dec *json.Decoder, first json.Token) error {
	d, ok := first.(json.Delim)
	if !ok || (d != '{' && d != '[') {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

// Sniff reports whether head, the first bytes of a file, looks like the
// output of `opencode export`: a JSON object whose first key is "info" or
// "messages". It never reads further than head.
func Sniff(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(head))
	if _, err := dec.Token(); err != nil {
		return false
	}
	tok, err := dec.Token()
	if err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	key, _ := tok.(string)
	return key == "info" || key == "messages"
}
