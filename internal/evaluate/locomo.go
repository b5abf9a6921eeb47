package evaluate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The LoCoMo release file: a JSON array of samples. Only the fields cairn
// uses are read; summaries, observations and image urls are ignored.
type locomoSample struct {
	SampleID     json.RawMessage            `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []locomoQA                 `json:"qa"`
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

type locomoQA struct {
	Question string          `json:"question"`
	Answer   json.RawMessage `json:"answer"` // a string or, six times, a number
	Evidence []string        `json:"evidence"`
	Category json.RawMessage `json:"category"`
}

// LoadLoCoMo reads the LoCoMo release file (locomo10.json). The returned
// dataset has no name; LoadFile names it after the file.
func LoadLoCoMo(r io.Reader) (Dataset, error) {
	var samples []locomoSample
	if err := json.NewDecoder(r).Decode(&samples); err != nil {
		return Dataset{}, fmt.Errorf("load locomo: %w", err)
	}
	var ds Dataset
	seen := make(map[string]int)
	for i, s := range samples {
		conv, err := locomoConversation(i, s)
		if err != nil {
			return Dataset{}, fmt.Errorf("load locomo: %w", err)
		}
		if j, dup := seen[conv.ID]; dup {
			return Dataset{}, fmt.Errorf("load locomo: sample %d: conversation id %q already used by sample %d", i, conv.ID, j)
		}
		seen[conv.ID] = i
		ds.Conversations = append(ds.Conversations, conv)
		qs, warnings, err := locomoQuestions(i, conv.ID, s.QA)
		if err != nil {
			return Dataset{}, fmt.Errorf("load locomo: %w", err)
		}
		ds.Questions = append(ds.Questions, qs...)
		ds.Warnings = append(ds.Warnings, warnings...)
	}
	ds.Warnings = append(ds.Warnings, danglingEvidence(ds)...)
	return ds, nil
}

func locomoConversation(i int, s locomoSample) (Conversation, error) {
	id := scalarText(s.SampleID)
	if id == "" {
		id = "conv-" + strconv.Itoa(i)
	}
	c := Conversation{ID: id}
	for _, key := range []string{"speaker_a", "speaker_b"} {
		if sp := scalarText(s.Conversation[key]); sp != "" {
			c.Speakers = append(c.Speakers, sp)
		}
	}
	// Iterate over the turn lists: a date key may have no turns.
	type numbered struct{ key, num string }
	var keys []numbered
	for k, v := range s.Conversation {
		num, ok := strings.CutPrefix(k, "session_")
		if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
			continue
		}
		if v = bytes.TrimSpace(v); len(v) == 0 || v[0] != '[' {
			continue
		}
		keys = append(keys, numbered{k, trimZeros(num)})
	}
	slices.SortFunc(keys, func(a, b numbered) int {
		if d := len(a.num) - len(b.num); d != 0 {
			return d
		}
		if d := strings.Compare(a.num, b.num); d != 0 {
			return d
		}
		return strings.Compare(a.key, b.key)
	})
	turnIDs := make(map[string]string)
	for _, k := range keys {
		var turns []locomoTurn
		if err := json.Unmarshal(s.Conversation[k.key], &turns); err != nil {
			return Conversation{}, fmt.Errorf("conversation %s: %s: %w", id, k.key, err)
		}
		if len(turns) == 0 {
			continue
		}
		raw, ok := s.Conversation[k.key+"_date_time"]
		if !ok {
			return Conversation{}, fmt.Errorf("conversation %s: %s has turns but no %s_date_time", id, k.key, k.key)
		}
		at, err := parseSessionTime(scalarText(raw))
		if err != nil {
			return Conversation{}, fmt.Errorf("conversation %s: %s: %w", id, k.key, err)
		}
		sess := Session{ID: k.key, Time: at}
		for n, t := range turns {
			tid := canonicalTurnID(t.DiaID)
			if tid == "" {
				return Conversation{}, fmt.Errorf("conversation %s: %s: turn %d has no dia_id", id, k.key, n)
			}
			if prev, dup := turnIDs[tid]; dup {
				return Conversation{}, fmt.Errorf("conversation %s: %s: dia_id %q already used in %s", id, k.key, tid, prev)
			}
			turnIDs[tid] = k.key
			sess.Turns = append(sess.Turns, Turn{
				ID:      tid,
				Speaker: t.Speaker,
				Text:    withCaption(t.Text, t.BlipCaption),
				Time:    defaultTurnTime(at, n),
			})
		}
		c.Sessions = append(c.Sessions, sess)
	}
	return c, nil
}

// withCaption appends an image caption to a turn's words, the only trace of
// the image that search can match.
func withCaption(text, caption string) string {
	caption = strings.TrimSpace(caption)
	if caption == "" {
		return text
	}
	if strings.TrimSpace(text) == "" {
		return "[shared image: " + caption + "]"
	}
	return text + " [shared image: " + caption + "]"
}

func locomoQuestions(i int, convID string, qa []locomoQA) ([]Question, []string, error) {
	var qs []Question
	var warnings []string
	for j, a := range qa {
		q := Question{
			ID:           fmt.Sprintf("locomo_%d_qa%d", i, j),
			Conversation: convID,
			Text:         a.Question,
			Answer:       scalarText(a.Answer),
		}
		cat := scalarText(a.Category)
		if n, err := strconv.Atoi(cat); err == nil {
			q.Category = locomoCategory(n)
		} else if cat != "" {
			q.Category = cat
		} else {
			return nil, nil, fmt.Errorf("%s: no category", q.ID)
		}
		var ids []string
		for _, e := range a.Evidence {
			found := parseEvidence(e)
			if len(found) == 0 {
				warnings = append(warnings, fmt.Sprintf("%s: evidence %q holds no turn id", q.ID, e))
			}
			ids = append(ids, found...)
		}
		q.Evidence = distinct(ids)
		if len(q.Evidence) == 0 {
			warnings = append(warnings, fmt.Sprintf("%s: no evidence; recall skips it", q.ID))
		}
		qs = append(qs, q)
	}
	return qs, warnings, nil
}

// scalarText renders a JSON string, number or boolean as text; null,
// absent and composite values give "".
func scalarText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return ""
	case '{', '[', 'n':
		return ""
	}
	return string(raw)
}
