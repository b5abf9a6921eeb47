package codex

import (
	"strconv"
	"time"
)

// lineage is what session_meta says about where a rollout came from.
type lineage struct {
	parent   string // the thread this one was forked or spawned from
	forked   bool   // forked_from_id: a copy of another conversation
	subagent bool   // spawned by another agent (or a review/compact helper)
	// historyStart is the ordinal of the first record that is this rollout's
	// own, when Codex recorded it.
	historyStart    int64
	hasHistoryStart bool
}

// readLineage reads the parent links of a session_meta payload. Codex has
// written them as forked_from_id, parent_thread_id, thread_source and
// source.subagent.thread_spawn.parent_thread_id over its releases.
func readLineage(meta object) lineage {
	var l lineage
	if id := meta.str("forked_from_id"); id != "" {
		l.forked = true
		l.parent = id
	}
	if meta.str("thread_source") == "subagent" {
		l.subagent = true
	}
	if id := meta.str("parent_thread_id"); id != "" {
		l.subagent = true
		l.parent = id
	}
	if src, ok := meta.obj("source"); ok {
		if raw := src.get("subagent"); raw != nil && string(raw) != "null" {
			l.subagent = true
			if sub, ok := objectAt(raw, src.buf); ok {
				if spawn, ok := sub.obj("thread_spawn"); ok {
					if id := spawn.str("parent_thread_id"); id != "" {
						l.parent = id
					}
				}
			}
		}
	} else if meta.str("source") == "subagent" {
		l.subagent = true
	}
	if n, ok := meta.int("subagent_history_start_ordinal"); ok {
		l.historyStart, l.hasHistoryStart = n, true
	} else if base, ok := meta.obj("history_base"); ok {
		if n, ok := base.int("end_ordinal_exclusive"); ok {
			l.historyStart, l.hasHistoryStart = n, true
		}
	}
	return l
}

// uuidV7Time returns the creation time embedded in a version-7 UUID: its
// first 48 bits are Unix milliseconds.
func uuidV7Time(id string) (time.Time, bool) {
	if len(id) != 36 || id[8] != '-' || id[13] != '-' || id[14] != '7' {
		return time.Time{}, false
	}
	ms, err := strconv.ParseInt(id[0:8]+id[9:13], 16, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.UnixMilli(ms).UTC(), true
}
