package evaluate

import (
	"fmt"
	"time"
)

// Category names shared by every loader. LoCoMo numbers map to these; a
// JSONL file may use them or any other name.
const (
	SingleHop   = "single-hop"
	MultiHop    = "multi-hop"
	Temporal    = "temporal"
	OpenDomain  = "open-domain"
	Adversarial = "adversarial"
)

// Dataset is one benchmark: conversations to store and questions to ask.
type Dataset struct {
	Name          string
	Conversations []Conversation
	Questions     []Question
	// Warnings lists defects in the data that did not stop loading, such
	// as evidence that names no turn. Scoring ignores it.
	Warnings []string
}

// Conversation is the history one set of questions is asked about.
type Conversation struct {
	ID       string
	Speakers []string
	Sessions []Session
}

// Session is one sitting of a conversation, in chronological order.
type Session struct {
	ID    string
	Time  time.Time
	Turns []Turn
}

// Turn is one utterance. ID is unique within its conversation and is what
// evidence and ranked results name.
type Turn struct {
	ID      string
	Speaker string
	Text    string
	Time    time.Time
}

// Question is one query with its gold evidence turns (ids of turns in
// Conversation, distinct, in the order the source gives them).
type Question struct {
	ID           string
	Conversation string
	Text         string
	Evidence     []string
	Category     string
	Answer       string
}

// Scored reports whether recall counts the question: one without evidence
// has nothing to find.
func (q Question) Scored() bool { return len(q.Evidence) > 0 }

// turnIndex maps conversation id → turn id → session id.
type turnIndex map[string]map[string]string

func (ds Dataset) turnIndex() turnIndex {
	idx := make(turnIndex, len(ds.Conversations))
	for _, c := range ds.Conversations {
		m := make(map[string]string)
		for _, s := range c.Sessions {
			for _, t := range s.Turns {
				m[t.ID] = s.ID
			}
		}
		idx[c.ID] = m
	}
	return idx
}

// categoryRank orders categories in reports: the LoCoMo ones first, in a
// fixed order, then any other name alphabetically (rank ties).
func categoryRank(c string) int {
	switch c {
	case SingleHop:
		return 0
	case MultiHop:
		return 1
	case Temporal:
		return 2
	case OpenDomain:
		return 3
	case Adversarial:
		return 4
	}
	return 5
}

// defaultTurnTime is the time of the n-th (0-based) turn of a session whose
// source gives none: a minute apart, so order survives sorting by time.
func defaultTurnTime(session time.Time, n int) time.Time {
	return session.Add(time.Duration(n) * time.Minute)
}

// distinct returns ids without repeats, keeping first occurrences, or nil.
func distinct(ids []string) []string {
	var out []string
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// danglingEvidence lists evidence ids that name no turn of their
// question's conversation: such a question can never reach full recall.
func danglingEvidence(ds Dataset) []string {
	idx := ds.turnIndex()
	var out []string
	for _, q := range ds.Questions {
		turns := idx[q.Conversation]
		for _, e := range q.Evidence {
			if _, ok := turns[e]; !ok {
				out = append(out, fmt.Sprintf("%s: evidence %s names no turn of %s", q.ID, e, q.Conversation))
			}
		}
	}
	return out
}
