package recall

import (
	"regexp"
	"testing"
)

// The patterns are compiled on first use, so a bad one would only show
// on the request that reaches it: compile every one here.
func TestEarlierPatternsCompile(t *testing.T) {
	all := append(append([]*lazyRegexp{}, earlierRulesEN...), earlierRulesZH...)
	all = append(all, earlierSpaces, earlierWhDidWeRe, earlierDidWeRe, earlierNowRe,
		earlierClauseRe, earlierAnchorRe, earlierPronounRe, earlierAskRe, earlierWordRe,
		earlierClauseZHRe, earlierAskZHRe, earlierWhenZHRe)
	for _, l := range all {
		if _, err := regexp.Compile(l.src); err != nil {
			t.Errorf("pattern %q: %v", l.src, err)
		}
	}
}
