package corpus

import (
	"strings"
)

// Query is one search a benchmark runs, with the kind of search it
// stands for.
type Query struct {
	Text string `json:"text"`
	Kind string `json:"kind"`
}

// Query kinds.
const (
	QueryProse   = "prose"   // a question in words
	QueryCode    = "code"    // an identifier or a path
	QueryTicket  = "ticket"  // an issue key
	QueryMixed   = "mixed"   // words with identifiers, paths or keys
	QueryChinese = "chinese" // Chinese, alone or with English
	QueryShell   = "shell"   // a command or an error message
	QueryPrompt  = "prompt"  // a whole request, as automatic recall sends it
	QueryMiss    = "miss"    // words no generator writes: nothing matches
)

// queryStream keeps the queries' random stream apart from every
// session's (sessions use small stream numbers).
const queryStream = 1 << 62

// Queries returns n searches drawn with seed from the vocabulary the
// generators write, so that most find something in any sizeable corpus.
// The mix leans on what people and agents search for: questions, names
// from the code, issue keys, pasted errors, whole requests, some Chinese
// and some misses.
func Queries(seed uint64, n int) []Query {
	g := newGen(seed, queryStream)
	out := make([]Query, 0, n)
	for range n {
		var q Query
		switch x := g.r.IntN(100); {
		case x < 24:
			q = Query{g.fill(g.pick(questionTemplates)), QueryProse}
		case x < 40:
			q = Query{g.codeQuery(), QueryCode}
		case x < 48:
			q = Query{g.ticket(), QueryTicket}
		case x < 62:
			q = Query{g.fill(g.pick(mixedTemplates)), QueryMixed}
		case x < 70:
			q = Query{g.chineseQuery(), QueryChinese}
		case x < 80:
			q = Query{g.shellQuery(), QueryShell}
		case x < 93:
			q = Query{g.request(), QueryPrompt}
		default:
			q = Query{g.missQuery(), QueryMiss}
		}
		q.Text = strings.ReplaceAll(q.Text, "`", "")
		out = append(out, q)
	}
	return out
}

var questionTemplates = []string{
	"why does the {c} have {p}?",
	"how did we fix {p}",
	"what did we change in the {c} {r}",
	"when did we {i} the {c}",
	"{c} {p}",
	"which tests cover the {c}",
	"did anyone {i} the {c} last month",
	"where is the {c} configured",
	"who decided the {c} should {i} on errors",
	"what was the root cause of {p}",
}

var mixedTemplates = []string{
	"{i} {id} in {f}",
	"{t} {c}",
	"{id} {p}",
	"error in {id} after {t}",
	"{f} {c} {id}",
	"{v} {id} {r}",
	"benchmark {id} on the {c}",
}

// codeQuery is a name someone copies from the code: an identifier, a
// path or a file name.
func (g *gen) codeQuery() string {
	switch g.r.IntN(5) {
	case 0:
		return g.relPath()
	case 1:
		return g.snake() + g.pick(langExts)
	case 2:
		return "Test" + g.camel(true)
	}
	return g.ident()
}

// chineseQuery is a few words of a Chinese sentence, sometimes with an
// English term beside them.
func (g *gen) chineseQuery() string {
	s := []rune(strings.TrimRight(g.pick(chinese), "。？，"))
	n := min(len(s), g.between(4, 10))
	at := g.r.IntN(len(s) - n + 1)
	q := string(s[at : at+n])
	switch g.r.IntN(3) {
	case 0:
		q += " " + g.pick(components)
	case 1:
		q = g.ident() + " " + q
	}
	return q
}

// shellQuery is a command or an error line someone pastes.
func (g *gen) shellQuery() string {
	switch g.r.IntN(7) {
	case 0:
		return "go test ./" + g.pick(dirParts) + "/... -run Test" + g.camel(true)
	case 1:
		return "kubectl get pods -n " + g.pick(nameParts)
	case 2:
		return "git diff " + g.relPath()
	case 3:
		return "undefined: " + g.camel(false)
	case 4:
		return "KeyError: '" + g.snake() + "'"
	case 5:
		return "panic: runtime error: invalid memory address or nil pointer dereference"
	}
	return g.pick(projects) + " CrashLoopBackOff"
}

// missWords appear in no generator's output.
var missWords = []string{
	"quokka", "marzipan", "xylophone", "platypus", "harpsichord", "kumquat",
	"zeppelin", "wombat", "origami", "tamarind", "narwhal", "bassoon",
}

func (g *gen) missQuery() string {
	n := g.between(1, 3)
	w := make([]string, n)
	for i := range w {
		w[i] = g.pick(missWords)
	}
	return strings.Join(w, " ")
}
