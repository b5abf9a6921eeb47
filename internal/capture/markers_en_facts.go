package capture

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// English current-state rules: the sentences that become one-value facts
// ("I'm on PAY-1432", "we moved to Render", "our CI now runs on
// Buildkite").

func (s *markSentence) enTicket(from int) (memory.Draft, bool) {
	var val string
	m := enFind(enTicketIntro, s.low, from, func(m []int) bool {
		if !s.enClear(from, m[0], m[1]) {
			return false
		}
		end := m[1]
		for end < len(s.low) && s.low[end] != ' ' && s.low[end] != ',' && s.low[end] != ';' {
			end++
		}
		v := strings.TrimRight(s.span(m[1], end), ".!:)")
		v = strings.TrimSuffix(strings.TrimSuffix(v, "'s"), "’s")
		v = strings.Trim(v, "`\"'")
		if enTicket.MatchString(v) {
			val = v
			return true
		}
		return false
	})
	if m == nil {
		if m := enFind(enOS, s.low, from, func(m []int) bool { return s.enClear(from, m[0], m[1]) }); m != nil {
			return s.fact("user", "os", s.span(m[2], m[3]), memory.ClassUser)
		}
		return memory.Draft{}, false
	}
	return s.fact("user", "current_ticket", val, memory.ClassTask)
}

func (s *markSentence) enWorkingOn(from int) (memory.Draft, bool) {
	var val string
	m := enFind(enWorkingOn, s.low, from, func(m []int) bool {
		if !s.enClear(from, m[0], m[1]) {
			return false
		}
		v, ok := s.value(m[1])
		if !ok {
			return false
		}
		if markEnContent(strings.ToLower(v)) == 0 || enVagueWork.MatchString(strings.ToLower(v)) {
			return false
		}
		val = v
		return true
	})
	if m == nil {
		return memory.Draft{}, false
	}
	if enTicket.MatchString(val) {
		return s.fact("user", "current_ticket", val, memory.ClassTask)
	}
	return s.fact("user", "working_on", val, memory.ClassTask)
}

// enChange reads current-state sentences: "we moved to X", "our X is now
// Y", "our X now runs on Y".
func (s *markSentence) enChange(from int) (memory.Draft, bool) {
	t := s.low
	if m := enFind(enMoved, t, from, func(m []int) bool { return s.enClear(from, m[0], m[1]) }); m != nil {
		rest := t[m[1]:]
		to := strings.Index(rest, " to ")
		if to < 0 {
			return memory.Draft{}, false
		}
		topic := rest[:to]
		if i := strings.Index(topic, " from "); i >= 0 {
			topic = topic[:i]
		} else if strings.HasPrefix(topic, " from ") || strings.HasPrefix(topic, "from ") {
			topic = ""
		}
		topic = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(topic), "over"))
		topic = strings.TrimSpace(strings.TrimSuffix(topic, "back"))
		v, ok := s.value(m[1] + to + 4)
		if !ok || markStateValue(v) {
			return memory.Draft{}, false
		}
		if topic != "" {
			slot, ok := markTopicSlot(markTrimDet(topic))
			if !ok {
				return memory.Draft{}, false
			}
			return s.fact(slot.subject, slot.predicate, v, slot.class)
		}
		if slot, ok := markValueSlot(v); ok {
			return s.fact(slot.subject, slot.predicate, v, slot.class)
		}
		if markEnContent(t[m[1]:]) > 0 {
			return s.note(memory.ClassDecision, markConfExplicit)
		}
		return memory.Draft{}, false
	}
	if m := enFind(enWeNow, t, from, func(m []int) bool {
		return s.enClear(from, m[0], m[1]) && enNowIn.MatchString(t[m[0]:enClauseEnd(t, m[1])])
	}); m != nil {
		if v, ok := s.value(m[1]); ok && !markStateValue(v) {
			return s.fact(slotDeploy.subject, slotDeploy.predicate, v, slotDeploy.class)
		}
	}
	for _, re := range []*lazyRegexp{enIsNow, enNowVb, enIs} {
		for _, m := range re.FindAllStringIndex(t[from:], -1) {
			p, q := from+m[0], from+m[1]
			words, det := enTopicBefore(t, from, p)
			if len(words) == 0 || !s.enClear(from, p-len(strings.Join(words, " ")), q) {
				continue
			}
			v, ok := s.value(q)
			if !ok || markStateValue(v) {
				continue
			}
			v = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(v, "on "), "at "))
			if slot, ok := markTopicSlot(strings.Join(words, " ")); ok {
				if det == "my" && slot.subject == "project" {
					slot.subject = "user"
				}
				return s.fact(slot.subject, slot.predicate, v, slot.class)
			}
			class, ok := markGenericHeads[words[len(words)-1]]
			if !ok || re == enIs || det == "" {
				continue
			}
			subject := "project"
			if det == "my" {
				subject = "user"
			}
			return s.fact(subject, markPredicate(words), v, class)
		}
	}
	return memory.Draft{}, false
}

// enTopicBefore returns up to four words before p that name a topic, and
// the determiner in front of them ("our", "my", "the"), if any.
func enTopicBefore(t string, from, p int) ([]string, string) {
	fields := strings.Fields(t[from:p])
	var words []string
	for i := len(fields) - 1; i >= 0 && len(words) < 4; i-- {
		w := fields[i]
		switch w {
		case "our", "my", "the", "your", "their", "this", "project's", "team's":
			return words, w
		}
		if strings.ContainsAny(w, ",;:!?()\"`") || markStopTopic[w] {
			break
		}
		words = append([]string{w}, words...)
	}
	return words, ""
}

// markStopTopic are words that cannot be part of a topic.
var markStopTopic = map[string]bool{
	"i": true, "we": true, "you": true, "it": true, "and": true, "but": true, "so": true, "that": true,
	"which": true, "now": true, "is": true, "are": true, "was": true, "were": true, "a": true, "an": true,
	"what": true, "where": true, "also": true, "then": true, "ok": true, "okay": true, "heads": true,
	"up": true, "fyi": true, "note": true, "btw": true, "everything": true, "all": true, "there": true,
}

// markTrimDet drops a leading determiner from a topic.
func markTrimDet(topic string) string {
	for _, d := range []string{"our ", "my ", "the ", "your ", "all ", "all our ", "everything "} {
		topic = strings.TrimPrefix(topic, d)
	}
	return topic
}
