package evaluate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// evidencePattern finds turn ids inside a LoCoMo evidence string, which may
// hold several ("D8:6; D9:17", "D9:1 D4:4") or be malformed ("D", "D:11:26").
var evidencePattern = regexp.MustCompile(`D(\d+):(\d+)`)

// parseEvidence returns the canonical turn ids found in one evidence string,
// in order, repeats included.
func parseEvidence(s string) []string {
	var ids []string
	for _, m := range evidencePattern.FindAllStringSubmatch(s, -1) {
		ids = append(ids, canonicalDiaID(m[1], m[2]))
	}
	return ids
}

// canonicalDiaID writes D<session>:<turn> without leading zeros, on the
// digit strings so that no number can overflow.
func canonicalDiaID(session, turn string) string {
	return "D" + trimZeros(session) + ":" + trimZeros(turn)
}

func trimZeros(digits string) string {
	if t := strings.TrimLeft(digits, "0"); t != "" {
		return t
	}
	return "0"
}

// canonicalTurnID normalises a dia_id the same way evidence is normalised,
// so "D30:05" on either side still matches; other ids are kept as given.
func canonicalTurnID(id string) string {
	id = strings.TrimSpace(id)
	if m := evidencePattern.FindStringSubmatchIndex(id); m != nil && m[0] == 0 && m[1] == len(id) {
		return canonicalDiaID(id[m[2]:m[3]], id[m[4]:m[5]])
	}
	return id
}

// sessionLayouts are the date shapes accepted after normaliseDate: the one
// LoCoMo uses ("1:56 pm on 8 May 2023" once the comma is gone) and near
// variants a converted or regenerated file may hold.
var sessionLayouts = []string{
	"3:04 pm on 2 January 2006",
	"3:04 pm on 2 Jan 2006",
	"3:04 pm on January 2 2006",
	"3:04 pm on Jan 2 2006",
	"3:04 pm 2 January 2006",
	"3:04 pm January 2 2006",
	"15:04 on 2 January 2006",
	"15:04 on January 2 2006",
	"2 January 2006 3:04 pm",
	"January 2 2006 3:04 pm",
	"2 January 2006",
	"2 Jan 2006",
	"January 2 2006",
	"Jan 2 2006",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02",
}

// parseSessionTime reads a LoCoMo session date. The text has no zone; it is
// taken as UTC.
func parseSessionTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	n := normaliseDate(s)
	for _, layout := range sessionLayouts {
		if t, err := time.Parse(layout, n); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("parse session date %q: not a known date format", s)
}

// normaliseDate lowercases, drops commas, spells a.m./p.m. as am/pm,
// separates "1:56pm" into "1:56 pm" and collapses spaces. Month names
// still match: Go compares them without case.
func normaliseDate(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer(",", " ", "a.m.", "am", "p.m.", "pm").Replace(s)
	fields := strings.Fields(s)
	out := make([]string, 0, len(fields)+1)
	for _, f := range fields {
		for _, suffix := range []string{"am", "pm"} {
			if head, ok := strings.CutSuffix(f, suffix); ok && head != "" && head[len(head)-1] >= '0' && head[len(head)-1] <= '9' {
				out = append(out, head)
				f = suffix
				break
			}
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}

// locomoCategory names a LoCoMo category number; an unknown one keeps its
// number so it still gets a row of its own.
func locomoCategory(n int) string {
	switch n {
	case 1:
		return MultiHop
	case 2:
		return Temporal
	case 3:
		return OpenDomain
	case 4:
		return SingleHop
	case 5:
		return Adversarial
	}
	return "category-" + strconv.Itoa(n)
}
