package temporal

import (
	"sort"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Clock names one of the two time lines.
type Clock string

// Clocks: the world clock says when something was true (valid_at,
// invalid_at); the system clock says when the store believed it
// (created_at, expired_at).
const (
	World  Clock = "world"
	System Clock = "system"
)

// ParseClock accepts "world" or "system".
func ParseClock(s string) (Clock, error) {
	switch Clock(s) {
	case World, "":
		return World, nil
	case System:
		return System, nil
	}
	return "", memory.Errorf(memory.CodeInvalid, "unknown clock %q: use world (when it was true) or system (when cairn knew it)", s)
}

// AsOf returns the rows as they stood at t. On the world clock: the rows
// valid then, ignoring withdrawn ones (what was true at t, as far as the
// store knows now). On the system clock: the rows the store held as
// current at t (what it believed at t).
func AsOf(rows []memory.Statement, t time.Time, clock Clock) []memory.Statement {
	var out []memory.Statement
	for _, r := range rows {
		switch clock {
		case System:
			if r.BelievedAt(t) {
				out = append(out, r)
			}
		default:
			if r.ValidOn(t) {
				out = append(out, r)
			}
		}
	}
	sortRows(out, clock)
	return out
}

// Timeline orders rows on a clock, keeping those whose time on that clock
// falls in [since, until) (zero bounds are open).
func Timeline(rows []memory.Statement, clock Clock, since, until time.Time) []memory.Statement {
	var out []memory.Statement
	for _, r := range rows {
		at := At(r, clock)
		if (!since.IsZero() && at.Before(since)) || (!until.IsZero() && !at.Before(until)) {
			continue
		}
		out = append(out, r)
	}
	sortRows(out, clock)
	return out
}

// At is a row's time on a clock.
func At(r memory.Statement, clock Clock) time.Time {
	if clock == System {
		return r.CreatedAt
	}
	return r.ValidAt
}

func sortRows(rows []memory.Statement, clock Clock) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := At(rows[i], clock), At(rows[j], clock)
		if !a.Equal(b) {
			return a.Before(b)
		}
		return rows[i].ID < rows[j].ID
	})
}

// RecentChanges picks the rows superseded within window before now, newest
// first, at most limit: what changed lately, shown beside current values.
func RecentChanges(rows []memory.Statement, now time.Time, window time.Duration, limit int) []memory.Statement {
	var out []memory.Statement
	for _, r := range rows {
		if r.Reason == memory.ReasonSuperseded && !r.ExpiredAt.IsZero() && !r.ExpiredAt.Before(now.Add(-window)) && !r.ExpiredAt.After(now) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].ExpiredAt.Equal(out[j].ExpiredAt) {
			return out[i].ExpiredAt.After(out[j].ExpiredAt)
		}
		return out[i].ID > out[j].ID
	})
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
