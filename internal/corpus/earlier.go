package corpus

import "strings"

// QueryEarlier is a request about earlier work ("where did we leave off
// with …"): the kind for which recall also searches the raw layer.
const QueryEarlier = "earlier"

// earlierStream keeps these requests' random stream apart from Queries'.
const earlierStream = 1<<62 + 2

var earlierTemplates = []string{
	"where did we leave off with the {c}?",
	"what did we decide last week about the {c}?",
	"remind me what we decided about {id}",
	"what was the error we hit in {f}?",
	"catch me up on the {c}",
	"last time we {v} the {c}, what broke?",
	"continue where we left off on {t}",
	"have we discussed {p} before?",
	"what were we doing on the {c} yesterday?",
	"did I tell you which {c} we picked for {t}?",
	"summarize what we did on {t} yesterday",
	"how did we fix {p} in the {c}?",
	"我们上次做到哪了？{c}",
}

// EarlierQueries returns n requests that ask about earlier work, drawn
// with seed from the vocabulary the generators write.
func EarlierQueries(seed uint64, n int) []Query {
	g := newGen(seed, earlierStream)
	out := make([]Query, 0, n)
	for range n {
		out = append(out, Query{strings.ReplaceAll(g.fill(g.pick(earlierTemplates)), "`", ""), QueryEarlier})
	}
	return out
}
