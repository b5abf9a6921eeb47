package evaluate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// WriteJSONL writes ds in the generic JSONL format: the dataset name (if
// any), then each conversation with its sessions and turns, then the
// questions. A turn's time is written only where it differs from the
// default LoadJSONL would give it. Warnings are not written.
func WriteJSONL(w io.Writer, ds Dataset) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	put := func(v any) error {
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("write jsonl: %w", err)
		}
		return nil
	}
	if ds.Name != "" {
		if err := put(jsonlDataset{Type: "dataset", Name: ds.Name}); err != nil {
			return err
		}
	}
	for _, c := range ds.Conversations {
		if err := put(jsonlConversation{Type: "conversation", ID: c.ID, Speakers: c.Speakers}); err != nil {
			return err
		}
		for _, s := range c.Sessions {
			if err := put(jsonlSession{Type: "session", Conversation: c.ID, ID: s.ID, Time: formatTime(s.Time)}); err != nil {
				return err
			}
			for n, t := range s.Turns {
				rec := jsonlTurn{Type: "turn", Conversation: c.ID, Session: s.ID, ID: t.ID, Speaker: t.Speaker, Text: t.Text}
				if !t.Time.Equal(defaultTurnTime(s.Time, n)) {
					rec.Time = formatTime(t.Time)
				}
				if err := put(rec); err != nil {
					return err
				}
			}
		}
	}
	for _, q := range ds.Questions {
		ev := q.Evidence
		if ev == nil {
			ev = []string{}
		}
		rec := jsonlQuestion{Type: "question", Conversation: q.Conversation, ID: q.ID, Question: q.Text, Evidence: ev, Category: q.Category, Answer: q.Answer}
		if err := put(rec); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write jsonl: %w", err)
	}
	return nil
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
