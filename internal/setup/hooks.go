package setup

import (
	"fmt"
	"strings"
)

// hookSpec is one hook cairn wants in a settings.json or hooks.json:
// both files use the same three levels (event → matcher group → handlers).
type hookSpec struct {
	Event   string
	Matcher string // "" means the group has no matcher
	Command string
	Timeout int
	Async   bool
}

// hookPos is a handler's place: event, group index, handler index.
type hookPos struct {
	Event        string
	Group, Index int
}

// hookEdit is what applyHooks did, for the report and for Codex, whose
// trust entries are keyed by a hook's position.
type hookEdit struct {
	changes []Change
	// moved maps the old position of every handler that is not cairn's
	// and survived to its new one (only where the two differ).
	moved map[hookPos]hookPos
	// dropped lists the old positions of cairn handlers that were removed.
	dropped []hookPos
}

// applyHooks makes the handlers of root["hooks"] that run cairn exactly
// specs, and touches nothing else: other handlers, groups and events keep
// their order and content. An existing cairn handler is updated in place
// (its unknown fields kept); duplicates and cairn handlers for events not
// in specs are removed; new ones are appended as their own group at the
// end of the event, so other handlers keep their positions. Groups,
// event arrays and the "hooks" object that cairn empties are removed.
// ours tells a cairn handler by its command.
func applyHooks(root *Object, specs []hookSpec, ours func(handler *Object) bool) (hookEdit, error) {
	var ed hookEdit
	hv, had := root.Get("hooks")
	hooks, ok := hv.(*Object)
	if had && !ok {
		return ed, fmt.Errorf(`"hooks" is not an object`)
	}
	if !had {
		hooks = NewObject()
	}
	before := snapshotPositions(hooks, ours)

	want := map[string]hookSpec{}
	for _, s := range specs {
		want[s.Event] = s
	}
	var regroup []hookSpec
	// Remove or update what exists, event by event.
	for _, event := range hooks.Keys() {
		groups, ok := mustArray(hooks, event)
		if !ok {
			continue // not an array: the client ignores it, and so do we
		}
		spec, wanted := want[event]
		kept := false
		var out []any
		for _, g := range groups {
			group, handlers, ok := groupHandlers(g)
			if !ok {
				out = append(out, g)
				continue
			}
			var keep []any
			for _, h := range handlers {
				ho, isObj := h.(*Object)
				if !isObj || !ours(ho) {
					keep = append(keep, h)
					continue
				}
				if !wanted || kept {
					what := "duplicate hook " + event
					if !wanted {
						what = "hook " + event
					}
					ed.changes = append(ed.changes, Change{Op: OpRemoved, What: what, Detail: commandOf(ho)})
					continue
				}
				kept = true
				// Our handler in a group shared with other handlers keeps
				// that group's matcher; it moves out only if it needs another.
				if len(handlers) > 1 && matcherOf(group) != spec.Matcher && countOurs(handlers, ours) < len(handlers) {
					ed.changes = append(ed.changes, Change{Op: OpUpdated, What: "hook " + event, Detail: "moved to a group of its own (matcher)"})
					regroup = append(regroup, spec)
					continue
				}
				d := updateHandler(ho, spec)
				if countOurs(handlers, ours) == len(handlers) && matcherOf(group) != spec.Matcher {
					setMatcher(group, spec.Matcher)
					d = strings.TrimPrefix(d+", matcher", ", ")
				}
				if d != "" {
					ed.changes = append(ed.changes, Change{Op: OpUpdated, What: "hook " + event, Detail: d})
				}
				keep = append(keep, ho)
			}
			if len(keep) == 0 && len(handlers) > 0 {
				continue // cairn emptied this group
			}
			if len(keep) != len(handlers) {
				group.Set("hooks", keep)
			}
			out = append(out, g)
		}
		if wanted && !kept {
			out = append(out, newGroup(spec))
			ed.changes = append(ed.changes, Change{Op: OpAdded, What: "hook " + event, Detail: spec.Command})
		}
		delete(want, event)
		switch {
		case len(out) == 0 && len(groups) > 0:
			hooks.Delete(event)
		case !sameSlice(out, groups):
			hooks.Set(event, out)
		}
	}
	for _, s := range regroup {
		appendGroup(hooks, s)
	}
	// Events that had no array yet, in the order cairn lists them.
	for _, s := range specs {
		if _, pending := want[s.Event]; !pending {
			continue
		}
		if v, exists := hooks.Get(s.Event); exists {
			if _, isArr := v.([]any); !isArr {
				return ed, fmt.Errorf(`"hooks.%s" is not an array`, s.Event)
			}
		}
		appendGroup(hooks, s)
		ed.changes = append(ed.changes, Change{Op: OpAdded, What: "hook " + s.Event, Detail: s.Command})
		delete(want, s.Event)
	}
	switch {
	case hooks.Len() == 0 && had && len(ed.changes) > 0:
		root.Delete("hooks")
	case hooks.Len() > 0 && !had:
		root.Set("hooks", hooks)
	}
	after := snapshotPositions(hooks, ours)
	ed.moved, ed.dropped = diffPositions(before, after)
	return ed, nil
}

func appendGroup(hooks *Object, s hookSpec) {
	arr, _ := mustArray(hooks, s.Event)
	hooks.Set(s.Event, append(append([]any(nil), arr...), newGroup(s)))
}

func newGroup(s hookSpec) *Object {
	g := NewObject()
	if s.Matcher != "" {
		g.Set("matcher", s.Matcher)
	}
	h := NewObject()
	updateHandler(h, s)
	g.Set("hooks", []any{h})
	return g
}

// updateHandler makes h run spec, keeping fields cairn does not own, and
// names what changed.
func updateHandler(h *Object, s hookSpec) string {
	var changed []string
	set := func(k string, v any) {
		if old, ok := h.Get(k); !ok || !equalJSON(old, v) {
			h.Set(k, v)
			changed = append(changed, k)
		}
	}
	set("type", "command")
	set("command", s.Command)
	if h.Delete("args") {
		changed = append(changed, "args")
	}
	set("timeout", s.Timeout)
	if h.Delete("timeoutSec") {
		changed = append(changed, "timeoutSec")
	}
	if s.Async {
		set("async", true)
	} else if h.Delete("async") {
		changed = append(changed, "async")
	}
	return strings.Join(changed, ", ")
}

func mustArray(o *Object, k string) ([]any, bool) {
	v, ok := o.Get(k)
	a, isArr := v.([]any)
	return a, ok && isArr
}

// groupHandlers returns a matcher group and its handlers when it has the
// expected shape.
func groupHandlers(g any) (*Object, []any, bool) {
	group, ok := g.(*Object)
	if !ok {
		return nil, nil, false
	}
	handlers, ok := mustArray(group, "hooks")
	return group, handlers, ok
}

func matcherOf(group *Object) string {
	m, _ := group.Get("matcher")
	s, _ := m.(string)
	return s
}

func setMatcher(group *Object, m string) {
	if m == "" {
		group.Delete("matcher")
		return
	}
	group.Set("matcher", m)
}

func commandOf(h *Object) string {
	c, _ := h.Get("command")
	s, _ := c.(string)
	return s
}

func countOurs(handlers []any, ours func(*Object) bool) int {
	n := 0
	for _, h := range handlers {
		if o, ok := h.(*Object); ok && ours(o) {
			n++
		}
	}
	return n
}

func sameSlice(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// handlerWords returns the words a handler runs: its command string, or
// the exec form (command plus args).
func handlerWords(h *Object) []string {
	cmd := commandOf(h)
	if av, ok := h.Get("args"); ok {
		words := []string{cmd}
		arr, _ := av.([]any)
		for _, a := range arr {
			s, _ := a.(string)
			words = append(words, s)
		}
		return words
	}
	words, err := splitWords(cmd)
	if err != nil {
		return nil
	}
	return words
}

// oursFor tells cairn's handlers for one client.
func oursFor(cairn string, clients ...string) func(*Object) bool {
	return func(h *Object) bool {
		return runsCairnHook(handlerWords(h), cairn, clients...)
	}
}

// positioned is a handler object with its position.
type positioned struct {
	pos  hookPos
	ours bool
}

// snapshotPositions records where every handler object sits.
func snapshotPositions(hooks *Object, ours func(*Object) bool) map[*Object]positioned {
	m := map[*Object]positioned{}
	for _, event := range hooks.Keys() {
		groups, ok := mustArray(hooks, event)
		if !ok {
			continue
		}
		for gi, g := range groups {
			_, handlers, ok := groupHandlers(g)
			if !ok {
				continue
			}
			for hi, h := range handlers {
				if o, ok := h.(*Object); ok {
					m[o] = positioned{pos: hookPos{event, gi, hi}, ours: ours(o)}
				}
			}
		}
	}
	return m
}

func diffPositions(before, after map[*Object]positioned) (map[hookPos]hookPos, []hookPos) {
	moved := map[hookPos]hookPos{}
	var dropped []hookPos
	for o, b := range before {
		a, ok := after[o]
		switch {
		case !ok && b.ours:
			dropped = append(dropped, b.pos)
		case ok && !b.ours && a.pos != b.pos:
			moved[b.pos] = a.pos
		}
	}
	return moved, dropped
}
