package cli

import (
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/memory"
)

// parseWhen reads a time as people type it: RFC 3339, a date, a date and
// a time, "now", or an offset back from now such as "-30d" or "-2h".
func parseWhen(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if s == "now" {
		return now, nil
	}
	if strings.HasPrefix(s, "-") {
		if d, err := config.ParseDuration(s[1:]); err == nil {
			return now.Add(-d), nil
		}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, memory.Errorf(memory.CodeInvalid, "cannot read the time %q: use 2026-05-01, \"2026-05-01 14:00\", RFC 3339, now, or -30d", s)
}
