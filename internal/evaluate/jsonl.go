package evaluate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// maxJSONLLine bounds one record; a turn of several megabytes is normal,
// one past this is a broken file.
const maxJSONLLine = 64 << 20

// The JSONL records, one struct per "type" (docs/eval-format.md). Unknown
// fields are rejected, so a misspelt "evidance" fails loudly instead of
// leaving a question without evidence.
type (
	jsonlEnvelope struct {
		Type *string `json:"type"`
	}
	jsonlDataset struct {
		Type string `json:"type"`
		Name string `json:"name,omitempty"`
	}
	jsonlConversation struct {
		Type     string   `json:"type"`
		ID       string   `json:"id"`
		Speakers []string `json:"speakers,omitempty"`
	}
	jsonlSession struct {
		Type         string `json:"type"`
		Conversation string `json:"conversation"`
		ID           string `json:"id"`
		Time         string `json:"time"`
	}
	jsonlTurn struct {
		Type         string `json:"type"`
		Conversation string `json:"conversation"`
		Session      string `json:"session"`
		ID           string `json:"id"`
		Speaker      string `json:"speaker"`
		Text         string `json:"text"`
		Time         string `json:"time,omitempty"`
	}
	jsonlQuestion struct {
		Type         string   `json:"type"`
		Conversation string   `json:"conversation"`
		ID           string   `json:"id"`
		Question     string   `json:"question"`
		Evidence     []string `json:"evidence"`
		Category     string   `json:"category,omitempty"`
		Answer       string   `json:"answer,omitempty"`
	}
)

// LineError is a defect on one line of a JSONL dataset.
type LineError struct {
	Line int // 1-based
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// jsonlLoader holds what earlier lines declared, with the line of each
// declaration so that a duplicate can point at the first one.
type jsonlLoader struct {
	ds        Dataset
	named     int                       // line of the dataset record, 0 if none yet
	convs     map[string]int            // conversation id → index in ds.Conversations
	convLine  map[string]int            // conversation id → line
	sessions  map[string]map[string]int // conversation → session id → index in Sessions
	sessLine  map[string]map[string]int // conversation → session id → line
	turnLine  map[string]map[string]int // conversation → turn id → line
	questions map[string]int            // question id → line
}

// LoadJSONL reads a dataset in cairn's generic JSONL format
// (docs/eval-format.md). Errors are *LineError wrapped with the operation.
// All times are returned in UTC.
func LoadJSONL(r io.Reader) (Dataset, error) {
	l := jsonlLoader{
		convs:     make(map[string]int),
		convLine:  make(map[string]int),
		sessions:  make(map[string]map[string]int),
		sessLine:  make(map[string]map[string]int),
		turnLine:  make(map[string]map[string]int),
		questions: make(map[string]int),
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		line, err := readLine(br, buf[:0])
		buf = line
		if err != nil && !errors.Is(err, io.EOF) {
			return Dataset{}, fmt.Errorf("load jsonl: %w", &LineError{n, err})
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			if lerr := l.record(n, t); lerr != nil {
				return Dataset{}, fmt.Errorf("load jsonl: %w", &LineError{n, lerr})
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	l.ds.Warnings = danglingEvidence(l.ds)
	return l.ds, nil
}

// readLine appends the next line (without its newline) to buf. It returns
// io.EOF with the last line when the input ends.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > maxJSONLLine {
			return buf, fmt.Errorf("longer than %d MiB", maxJSONLLine>>20)
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return buf, err
		}
	}
}

func (l *jsonlLoader) record(n int, line []byte) error {
	var env jsonlEnvelope
	if err := json.Unmarshal(line, &env); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	if env.Type == nil {
		return errors.New(`no "type" field`)
	}
	switch *env.Type {
	case "dataset":
		var d jsonlDataset
		if err := strict(line, &d); err != nil {
			return err
		}
		return l.dataset(n, d)
	case "conversation":
		var c jsonlConversation
		if err := strict(line, &c); err != nil {
			return err
		}
		return l.conversation(n, c)
	case "session":
		var s jsonlSession
		if err := strict(line, &s); err != nil {
			return err
		}
		return l.session(n, s)
	case "turn":
		var t jsonlTurn
		if err := strict(line, &t); err != nil {
			return err
		}
		return l.turn(n, t)
	case "question":
		var q jsonlQuestion
		if err := strict(line, &q); err != nil {
			return err
		}
		return l.question(n, q)
	}
	return fmt.Errorf("unknown type %q (want dataset, conversation, session, turn or question)", *env.Type)
}

// strict decodes one record, rejecting fields its type does not have.
func strict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func (l *jsonlLoader) dataset(n int, d jsonlDataset) error {
	if l.named != 0 {
		return fmt.Errorf("second dataset record (first on line %d)", l.named)
	}
	l.named = n
	l.ds.Name = d.Name
	return nil
}

func (l *jsonlLoader) conversation(n int, c jsonlConversation) error {
	if blank(c.ID) {
		return errors.New("conversation has no id")
	}
	if first, dup := l.convLine[c.ID]; dup {
		return fmt.Errorf("duplicate conversation id %q (first on line %d)", c.ID, first)
	}
	l.convLine[c.ID] = n
	l.convs[c.ID] = len(l.ds.Conversations)
	l.sessions[c.ID] = make(map[string]int)
	l.sessLine[c.ID] = make(map[string]int)
	l.turnLine[c.ID] = make(map[string]int)
	var speakers []string
	if len(c.Speakers) > 0 {
		speakers = c.Speakers
	}
	l.ds.Conversations = append(l.ds.Conversations, Conversation{ID: c.ID, Speakers: speakers})
	return nil
}

// known checks that a record names a conversation declared above it.
func (l *jsonlLoader) known(conv string) (*Conversation, error) {
	if blank(conv) {
		return nil, errors.New(`no "conversation" field`)
	}
	i, ok := l.convs[conv]
	if !ok {
		return nil, fmt.Errorf("unknown conversation %q (declare it on a conversation line above)", conv)
	}
	return &l.ds.Conversations[i], nil
}

func (l *jsonlLoader) session(n int, s jsonlSession) error {
	c, err := l.known(s.Conversation)
	if err != nil {
		return err
	}
	if blank(s.ID) {
		return errors.New("session has no id")
	}
	if first, dup := l.sessLine[c.ID][s.ID]; dup {
		return fmt.Errorf("duplicate session id %q in conversation %q (first on line %d)", s.ID, c.ID, first)
	}
	if blank(s.Time) {
		return fmt.Errorf("session %q has no time", s.ID)
	}
	at, err := parseJSONLTime(s.Time)
	if err != nil {
		return fmt.Errorf("session %q: %w", s.ID, err)
	}
	l.sessLine[c.ID][s.ID] = n
	l.sessions[c.ID][s.ID] = len(c.Sessions)
	c.Sessions = append(c.Sessions, Session{ID: s.ID, Time: at})
	return nil
}

func (l *jsonlLoader) turn(n int, t jsonlTurn) error {
	c, err := l.known(t.Conversation)
	if err != nil {
		return err
	}
	if blank(t.ID) {
		return errors.New("turn has no id")
	}
	if first, dup := l.turnLine[c.ID][t.ID]; dup {
		return fmt.Errorf("duplicate turn id %q in conversation %q (first on line %d)", t.ID, c.ID, first)
	}
	if blank(t.Session) {
		return fmt.Errorf("turn %q has no session", t.ID)
	}
	si, ok := l.sessions[c.ID][t.Session]
	if !ok {
		return fmt.Errorf("turn %q: unknown session %q in conversation %q (declare it on a session line above)", t.ID, t.Session, c.ID)
	}
	if blank(t.Speaker) {
		return fmt.Errorf("turn %q has no speaker", t.ID)
	}
	s := &c.Sessions[si]
	at := defaultTurnTime(s.Time, len(s.Turns))
	if t.Time != "" {
		if at, err = parseJSONLTime(t.Time); err != nil {
			return fmt.Errorf("turn %q: %w", t.ID, err)
		}
	}
	l.turnLine[c.ID][t.ID] = n
	s.Turns = append(s.Turns, Turn{ID: t.ID, Speaker: t.Speaker, Text: t.Text, Time: at})
	return nil
}

func (l *jsonlLoader) question(n int, q jsonlQuestion) error {
	c, err := l.known(q.Conversation)
	if err != nil {
		return err
	}
	if blank(q.ID) {
		return errors.New("question has no id")
	}
	if first, dup := l.questions[q.ID]; dup {
		return fmt.Errorf("duplicate question id %q (first on line %d)", q.ID, first)
	}
	if blank(q.Question) {
		return fmt.Errorf("question %q has no question text", q.ID)
	}
	for _, e := range q.Evidence {
		if blank(e) {
			return fmt.Errorf("question %q: blank turn id in evidence", q.ID)
		}
	}
	l.questions[q.ID] = n
	l.ds.Questions = append(l.ds.Questions, Question{
		ID:           q.ID,
		Conversation: c.ID,
		Text:         q.Question,
		Evidence:     distinct(q.Evidence),
		Category:     q.Category,
		Answer:       q.Answer,
	})
	return nil
}

// jsonlTimeLayouts: RFC 3339, or the same without a zone (read as UTC), or
// a bare date.
var jsonlTimeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02"}

func parseJSONLTime(s string) (time.Time, error) {
	for _, layout := range jsonlTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("bad time %q: want RFC 3339, such as 2023-05-08T13:56:00Z", s)
}
