package distill

import (
	"strconv"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// User feedback in the last request of a session, which outranks the
// assistant's own account of how things went.
var (
	praise    = []string{"thanks", "thank you", "works", "worked", "perfect", "great", "lgtm", "looks good", "ship it", "nice", "谢谢", "可以了", "好了"}
	complaint = []string{"still fail", "still broken", "doesn't work", "does not work", "didn't work", "not working", "broken", "wrong", "revert", "undo that", "不对", "还是不行", "没用"}
)

// outcomeOf judges how the session's task ended, from evidence rather
// than the assistant's optimism: commits, pushes and passing tests on a
// completed last turn are a success; failures no later run fixed are a
// failure, or partial beside real progress; the user's last words tip an
// otherwise silent session; anything else is uncertain. why says which
// evidence decided.
func outcomeOf(tr *trace) (o memory.Outcome, why string) {
	open := tr.unresolved()
	progress := len(tr.commits) + len(tr.st.commits) + tr.tests + len(tr.failures) - open
	lastOK := len(tr.turns) > 0 && tr.turns[len(tr.turns)-1].Status == memory.TurnCompleted
	last := strings.ToLower(tr.lastUser())
	neg, pos := containsAny(last, complaint), containsAny(last, praise)
	switch {
	case open > 0 && progress == 0:
		return memory.OutcomeFailure, plural(open, "failed command", "failed commands") + " never fixed"
	case open > 0:
		return memory.OutcomePartial, plural(open, "failed command", "failed commands") + " never fixed beside " + progressWhy(tr)
	case neg:
		if progress > 0 {
			return memory.OutcomePartial, "the user's last words report a problem despite " + progressWhy(tr)
		}
		return memory.OutcomeFailure, "the user's last words report a problem"
	case progress > 0 && lastOK:
		return memory.OutcomeSuccess, progressWhy(tr) + ", last turn completed"
	case progress > 0:
		return memory.OutcomePartial, progressWhy(tr) + ", but the last turn did not complete"
	case pos && lastOK:
		return memory.OutcomeSuccess, "the user's last words approve"
	}
	return memory.OutcomeUncertain, "no verification and no feedback from the user"
}

func progressWhy(tr *trace) string {
	var parts []string
	if n := max(len(tr.commits), countPred(tr.st.commits, "committed")); n > 0 {
		parts = append(parts, plural(n, "commit", "commits"))
	}
	if n := countPred(tr.st.commits, "pushed"); n > 0 {
		parts = append(parts, plural(n, "push", "pushes"))
	}
	if tr.tests > 0 {
		parts = append(parts, plural(tr.tests, "passing test run", "passing test runs"))
	}
	if n := len(tr.failures) - tr.unresolved(); n > 0 {
		parts = append(parts, plural(n, "fixed failure", "fixed failures"))
	}
	return strings.Join(parts, ", ")
}

func countPred(ss []memory.Statement, pred string) int {
	n := 0
	for _, s := range ss {
		if s.Predicate == pred {
			n++
		}
	}
	return n
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
