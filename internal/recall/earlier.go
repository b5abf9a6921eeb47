package recall

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// AsksAboutEarlierWork reports whether a request asks about earlier work,
// sessions or conversations ("where did I leave off", "what did we decide
// about…", "我们上次做到哪了"), so that raw excerpts of earlier sessions
// are worth their room in the block.
//
// It prefers precision: a request must name the earlier work, not merely
// hold a past-sounding word. "again", "previous version", "last commit",
// "remember to…" and a past time with no one who did the work ("why did the
// deploy fail last night") do not count. Code, fenced, indented or inline,
// is not part of the question and is ignored; of a very long request only
// its first and last few kilobytes are read.
func AsksAboutEarlierWork(request string) bool {
	s := earlierNormalize(request)
	if s == "" {
		return false
	}
	for _, re := range earlierRulesEN {
		if re.MatchString(s) {
			return true
		}
	}
	if earlierWhDidWe(s) || earlierDidWe(s) || earlierClauses(s) {
		return true
	}
	if !earlierHasHan(s) {
		return false
	}
	for _, re := range earlierRulesZH {
		if re.MatchString(s) {
			return true
		}
	}
	return earlierClausesZH(s)
}

// earlierWindow is how much of each end of a long request is read, once
// code is dropped; earlierRawWindow bounds the text code is looked for in.
const (
	earlierWindow    = 4 << 10
	earlierRawWindow = 32 << 10
)

// earlierNormalize drops code, keeps the ends of a long request, folds
// case and quotes, spells out the contractions the rules need and removes
// idioms that sound like memory but are not.
func earlierNormalize(req string) string {
	s := earlierEnds(earlierDropCode(earlierEnds(req, earlierRawWindow)), earlierWindow)
	s = strings.ToLower(s)
	s = earlierFold.Replace(s)
	s = earlierSpaces.ReplaceAllString(s, " ")
	return strings.TrimSpace(s)
}

// earlierEnds keeps the first and last n bytes of s (whole runes), with a
// paragraph break between them.
func earlierEnds(s string, n int) string {
	if len(s) <= 2*n {
		return s
	}
	head, tail := n, len(s)-n
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "\n\n" + s[tail:]
}

var earlierFold = strings.NewReplacer(
	"’", "'", "‘", "'", "“", `"`, "”", `"`, "\t", " ", "\r", "",
	"where'd ", "where did ", "what'd ", "what did ", "how'd ", "how did ",
	"when'd ", "when did ", "who'd ", "who did ", "why'd ", "why did ",
	"we've ", "we have ", "i've ", "i have ", "you've ", "you have ",
	"what's ", "what is ", "where's ", "where is ",
	"can't", "cannot", "won't", "will not", "n't", " not",
	"last time i checked", "", "last time i looked", "",
)

var earlierSpaces = lazyRE(`[ \f\v\x{00a0}\x{3000}]+`)

// earlierDropCode blanks fenced and inline code and removes indented code
// blocks: pasted code and logs are not the question.
func earlierDropCode(req string) string {
	prot := citeProtected(req)
	var b strings.Builder
	last := 0
	for _, sp := range prot {
		b.WriteString(req[last:sp.from])
		b.WriteString(" ")
		last = sp.to
	}
	b.WriteString(req[last:])
	lines := strings.Split(b.String(), "\n")
	kept := lines[:0]
	prevBlank, inCode := true, false
	for _, line := range lines {
		blank := strings.TrimSpace(line) == ""
		indented := strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
		inCode = !blank && indented && (prevBlank || inCode)
		if !inCode {
			kept = append(kept, line)
		}
		prevBlank = blank
	}
	return strings.Join(kept, "\n")
}

// The English rules. Each names the earlier work itself; a clause is what
// lies between sentence marks, written [^.?!;\n].
var earlierRulesEN = earlierCompile(
	// Where we left off.
	`\b(?:we|i|you) (?:left|stopped) off\b`,
	`\bwhere (?:did|do|were|had) (?:we|i|you) (?:leave|stop) off\b`,
	`\bwhere (?:did|do) (?:we|i) stop\b`,
	`\bwhere (?:were we|was i|we were|i was)\s*(?:[?.!,]|$)`,
	// "Last time we…".
	`\blast time,? (?:we|you|i)\b`,
	// "You said earlier…", "earlier you said…".
	`\b(?:you|we|i) (?:said|mentioned|told me|told you|suggested|recommended|proposed|decided|agreed|promised|discussed|explained|asked you|asked me|talked about|noted|wrote down)\b[^.?!;\n]{0,60}?\b(?:earlier(?:\s*(?:[,.?!;\n]|$)| today| this week| that| in)|before(?:\s*(?:[,.?!;\n]|$)| that)|previously|last time|yesterday|last week|the other day|a while ago|in (?:our|the|a|an) (?:previous|last|earlier|prior|other|old) (?:session|conversation|chat|thread))`,
	`\b(?:earlier|previously|last time|yesterday|last week|the other day|back then),? (?:you|we|i) (?:said|mentioned|told|suggested|recommended|proposed|decided|agreed|promised|discussed|explained|asked|talked|noted|wanted|chose|picked|had|were|did|used|tried|fixed|changed|added|wrote|gave)\b`,
	// "Remind me what we decided".
	`\bremind me (?:again )?(?:what|how|why|where|which|who|when|whether|if|of|about)\b[^.?!;\n]*\b(?:we|i|you|our|us|was|were|did|had)\b`,
	// Earlier sessions.
	`\b(?:our|my) (?:previous|last|earlier|prior|past|other|older|old|recent|first) (?:sessions?|conversations?|chats?|discussions?|threads?)\b`,
	`\b(?:yesterday|last (?:week|night|time|month)|this morning|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))'s (?:session|conversation|chat|discussion|work)\b`,
	// "I remember we had…": the user recalls, and asks about it.
	`\bi (?:remember|recall) (?:that )?(?:we|you)\b[^.?!;\n]*\b(?:had|did|was|were|used|said|decided|wrote|made|added|tried|built|set up)\b`,
	`\b(?:in|during|from) (?:the|a|an|that|one of the) (?:previous|last|earlier|prior|past|other|older|old) (?:sessions?|conversations?|chats?|discussions?|threads?)\b[^.?!;\n]*\b(?:we|i|you)\b|\b(?:we|i|you)\b[^.?!;\n]*\b(?:in|during|from) (?:the|a|an|that|one of the) (?:previous|last|earlier|prior|past|other|older|old) (?:sessions?|conversations?|chats?|discussions?|threads?)\b`,
	// "Have we discussed…", "did I tell you…".
	`\bhave (?:we|i) (?:ever |already |previously |before |even )?(?:discussed|talked|spoken|chatted|seen|hit|encountered|run into|ran into|tried|done|decided|fixed|solved|agreed|covered|looked at|considered|worked on|dealt with|mentioned|used|chosen|settled|told you|said|asked|shown you|built|implemented|written|added|changed|benchmarked|measured|tested|debugged)\b`,
	`\bhave you (?:ever |already )?(?:seen|encountered|hit|run into|come across)\b[^.?!;\n]*\bbefore\b`,
	`\b(?:we|i) have (?:already |previously |ever |before )?(?:discussed|talked about|covered|decided|agreed|been through|gone over|told you|said|mentioned|asked)\b`,
	`\bdid (?:not )?i (?:ever |already |previously |not |never )?(?:mention|say|tell|ask|decide|agree|settle|choose|pick|end up|leave|stop|promise|explain)\b`,
	`\bwhen did i\b`,
	`\bwhat did i (?:tell|say|ask|mention|decide|want|agree|choose|pick|settle|note|write down|work on|name|call)\b`,
	// Remembering together.
	`\b(?:do|did)(?: not)? you (?:still )?(?:remember|recall)\b`,
	`\b(?:can|could) you (?:recall|remind me)\b`,
	`\bremember (?:when|how|what|why|where|which|that time) (?:we|i|you)\b`,
	`\byou remember (?:when|that time)\b`,
	`\bi (?:forgot|forget|cannot remember|do not remember|cannot recall|do not recall) (?:what|how|why|where|which|who|when|whether|if)\b[^.?!;\n]*\b(?:we|you|i|our)\b`,
	// What we were doing.
	`\bwhat (?:(?:were|was) (?:we|i)|(?:we|i) (?:were|was)) (?:doing|working on|talking about|discussing|looking at|trying|fixing|building|debugging|planning|up to|in the middle of)\b`,
	`\bwhat (?:have|had) (?:we|i) been (?:doing|working on|up to|building|fixing|discussing|talking about)\b`,
	`\b(?:as|like) (?:we|you and i) (?:discussed|agreed|decided|planned|talked about|said)\b`,
	`\b(?:as|like) (?:i|you) (?:said|mentioned|told you|told me|suggested|explained) (?:before|earlier|previously|last time|yesterday)\b`,
	`\b(?:we|i) (?:already )?(?:talked|spoke|chatted) about (?:this|that|it)\b`,
	// "What was the error we hit".
	`\bwhat (?:was|were) (?:the|that|those) [^.?!;\n]{0,50}?\b(?:we|i) (?:hit|saw|got|had|used|ran|chose|picked|made|decided|tried|found|fixed|wrote|added|settled|agreed|discussed|mentioned|said|ran into|encountered|called|named|went with|set up|configured|deployed|removed|dropped|came up with|landed on|ended up|talked about)\b`,
	`\bwhat (?:is|are) (?:the|that|those) [^.?!;\n]{0,50}?\b(?:we|i) (?:used|chose|picked|decided|settled|agreed|named|called|went with|came up with|landed on|ended up)\b`,
	`\bwhat (?:was|were) (?:the|that|those) [^.?!;\n]{0,50}?\byou (?:suggested|recommended|mentioned|proposed|chose|picked|said|told me|came up with|gave me)\b`,
	// Catching up.
	`\bcatch me up\b`,
	`\b(?:recap|summarize|summarise|summary of|overview of)\b[^.?!;\n]{0,40}?(?:\bwhat (?:we|i) (?:did|worked|have|had|were|discussed|decided|changed|built|fixed)\b|\bour (?:previous|last|earlier|past|recent)\b|\byesterday\b|\blast (?:time|session|week)\b|\b(?:previous|earlier|past) sessions?\b)`,
	`\b(?:continue|resume|pick up|carry on|get back to)\b[^.?!;\n]{0,40}?\b(?:yesterday|last time|last session|left off|where we stopped|where i stopped|where we were|from before)\b`,
)

// The Chinese rules. A clause is what lies between 。！？；; the pronoun,
// time and verb groups are spelled out in each rule so that each reads on
// its own.
var earlierRulesZH = earlierCompile(
	// 做到哪了 / 停在哪了, said of us or of a time.
	`(?:我们|咱们|我|你|您|上次|上回|上一次|昨天|前天|上周|之前|以前|那次|当时)[^。！？；\n]{0,12}(?:做|改|写|弄|搞|进行|进展|推进|聊|说|讲|谈|走|干|看)到了?(?:哪|什么地方|哪一步|什么程度)`,
	`(?:我们|咱们|我|你|您|上次|上回|上一次|昨天|前天|上周|之前|以前|那次|当时)[^。！？；\n]{0,12}停在了?(?:哪|什么地方)`,
	// Remembering.
	`还记得|记不记得`,
	`(?:你|您)还?记得[^。！？；\n]{0,40}(?:吗|么|嘛|没|[？?])`,
	`回(?:忆|想)一下`,
	// We discussed, I told you, you suggested: 说过, 讨论过, 告诉过.
	`(?:我们|咱们|我|你|您)[^。！？；\n]{0,12}(?:讨论|聊|谈|说|提|讲|告诉|决定|商量|约定|提到|提起|争论|问|交代|强调|说明|建议|推荐)过`,
	// 之前说的, 上次提到的, 上周遇到的.
	`(?:上次|上回|上一次|那次|昨天|昨晚|前天|上周|上星期|上礼拜|上个月|去年|前几天|那天|早些时候|当时|当初|之前|以前|先前|此前|早先)(?:我们|咱们|我|你|您)?(?:说好|说|提到|提起|讨论|聊|谈|决定|商量|约定|遇到|碰到|推荐|建议)过?的`,
	`(?:你|您)(?:上次|上回|之前|以前|先前|昨天|前天|上周|当时)(?:给|定|写|改|用|提|说|推荐|建议|发)的`,
	// 上次我们, 我们上次.
	`(?:上次|上回|上一次|那次)(?:我们|咱们|我|你|您|说|讲|提到|讨论|聊|谈|决定|商量|做到|停在|是怎么|怎么)`,
	`(?:我们|咱们|我|你|您)(?:上次|上回|上一次|那次)`,
	// Earlier conversations, asked about.
	`(?:上次|上一次|上回|之前|以前|前面|早先|昨天|上一个|上个|前一个|前几次)的?(?:对话|聊天|讨论|交流|会话)[^。！？；\n]*(?:我们|咱们|我|你|您|什么|哪|吗|么|呢|怎么|为什么|[？?])`,
	`(?:我们|咱们|我|你|您)[^。！？；\n]*(?:上次|上一次|上回|之前|以前|前面|早先|昨天|上一个|上个|前一个|前几次)的?(?:对话|聊天|讨论|交流|会话)`,
	// Continuing, recalling, reviewing.
	`(?:继续|接着)[^。！？；\n]{0,20}(?:昨天|上次|上回|前天|上周|之前我们|我们之前|咱们之前)`,
	`(?:我们|咱们|我|你)[^。！？；\n]{0,20}来着`,
	`提醒(?:我|一下)[^。！？；\n]{0,20}(?:我们|咱们|之前|上次|以前|昨天|当时|上周)`,
	`(?:回顾|复盘|总结|梳理)(?:一下)?[^。！？；\n]{0,10}(?:上次|上回|昨天|前天|上周|之前|以前|前几天|当时)`,
	`(?:我们|咱们|我|你|您)是?(?:什么时候|何时|哪天|哪一天)[^。！？；\n]{0,30}的(?:[？?。!！]|$|吗|呢)`,
)

func earlierCompile(patterns ...string) []*lazyRegexp {
	res := make([]*lazyRegexp, len(patterns))
	for i, p := range patterns {
		res[i] = lazyRE(p)
	}
	return res
}

// earlierWhDidWeRe: "why did we choose…", "how did we solve…" ask about
// earlier work, unless they ask how we got the current thing wrong.
var earlierWhDidWeRe = lazyRE(`\b(?:what|which|how|why|where|when|who) did we (\w+)(?: (\w+))?`)

func earlierWhDidWe(s string) bool {
	for _, m := range earlierWhDidWeRe.FindAllStringSubmatch(s, -1) {
		switch m[1] {
		case "get", "miss", "break", "lose", "screw", "mess":
			continue
		case "do", "go":
			if m[2] == "wrong" {
				continue
			}
		}
		return true
	}
	return false
}

// earlierDidWeRe: "did we decide on…", "did we fix…", unless the clause is
// about what is in front of us now.
var (
	earlierDidWeRe = lazyRE(`\bdid (?:not )?we (?:ever |already |previously |not |never |actually |finally )?(?:discuss|talk|decide|agree|settle|try|choose|pick|go with|end up|fix|solve|change|use|mention|say|tell|ask|figure out|finish|merge|deploy|conclude|land on|hit|see|run into|encounter|look at|cover|consider|write|add|remove|rename|name|set up|configure|plan|document|benchmark)\b[^.?!;\n]*`)
	earlierNowRe   = lazyRE(`\b(?:just|right now|here|a moment ago|this session|in this file|in this function)\b`)
)

func earlierDidWe(s string) bool {
	for _, m := range earlierDidWeRe.FindAllString(s, -1) {
		if !earlierNowRe.MatchString(m) {
			return true
		}
	}
	return false
}

// A clause with a past time, someone of us and a past verb, in a request
// that asks ("what was the error we hit last week", "tell me what we
// worked on on Friday").
var (
	earlierClauseRe  = lazyRE(`[^.?!;\n]+[.?!;\n]?`)
	earlierAnchorRe  = lazyRE(`\b(?:yesterday|last (?:time|week|night|month|year|session|sprint|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|earlier (?:today|this week|this month)|this morning|the other day|previously|back then|at the time|(?:a few|a couple of|couple of|two|three|several|\d+) (?:days|weeks|months) ago|a (?:day|week|month) ago|before (?:the |my |our )?(?:weekend|holidays?|break|vacation|leave|christmas|new year)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|lately|recently)\b|\b(?:before|earlier)\s*(?:[?.!]|$)`)
	earlierPronounRe = lazyRE(`\b(?:we|i|you|us)\b`)
	earlierAskRe     = lazyRE(`\?|^\W*(?:(?:so|ok|okay|hey|and|but|btw|by the way|also|hmm|well|quick question|one more thing),? )*(?:what|where|when|which|who|whose|why|how|did|do|does|was|were|is|are|have|has|had|can|could|would|will|tell me|show me|remind me|recap|summarize|summarise|list|give me)\b`)
	earlierWordRe    = lazyRE(`[a-z]+`)
)

func earlierClauses(s string) bool {
	if !earlierAnchorRe.MatchString(s) {
		return false
	}
	for _, c := range earlierClauseRe.FindAllString(s, -1) {
		c = strings.TrimSpace(c)
		if earlierAnchorRe.MatchString(c) && earlierPronounRe.MatchString(c) &&
			earlierAskRe.MatchString(c) && earlierPast(c) {
			return true
		}
	}
	return false
}

// earlierPast reports a verb in the past tense: an auxiliary, a common
// irregular form or a regular "-ed" form.
func earlierPast(clause string) bool {
	for _, w := range earlierWordRe.FindAllString(clause, -1) {
		if strings.Contains(earlierIrregular, " "+w+" ") {
			return true
		}
		if len(w) >= 4 && strings.HasSuffix(w, "ed") && !strings.Contains(earlierNotPast, " "+w+" ") {
			return true
		}
	}
	return false
}

// A Chinese clause that asks (a question word anywhere in it) about a
// time when one of us did something: the time next to who ("我们上次",
// "昨天我们") or shortly before what was done ("上周遇到的…"). 之前 and 以前
// also mean "the old …" ("之前的版本"), so they count only next to us, and
// not as "my previous …" ("我之前的代码").
var (
	earlierClauseZHRe = lazyRE(`[^。！？；?!;\n]+[。！？；?!;\n]?`)
	earlierAskZHRe    = lazyRE(`什么|哪|吗|么|呢|是不是|有没有|怎么|怎样|为什么|为何|多少|谁|几|来着|[？?]`)
	earlierWhenZHRe   = lazyRE(
		`(?:我们|咱们|我|你|您)(?:都|也|是|在)?(?:上次|上回|上一次|那次|昨天|昨晚|前天|上周|上星期|上礼拜|上个月|去年|前几天|那天|早些时候|当时|当初|那时候?|那会儿|前阵子)` +
			`|(?:上次|上回|上一次|那次|昨天|昨晚|前天|上周|上星期|上礼拜|上个月|去年|前几天|那天|早些时候|当时|当初|那时候?|那会儿|前阵子)(?:上午|下午|晚上|早上|中午)?[，,]?(?:我们|咱们|我|你|您)` +
			`|(?:上次|上回|上一次|那次|昨天|昨晚|前天|上周|上星期|上礼拜|上个月|去年|前几天|那天|早些时候|当时|当初|那时候?|那会儿|前阵子)[^。！？；?!;\n]{0,12}(?:做|改|写|修|讨论|聊|谈|说|决定|商量|遇到|碰到|提到|处理|解决|跑|卡|推荐|建议|约定)` +
			`|(?:我们|咱们|我|你|您)(?:之前|以前|先前|此前|早先|原先)(?:[^的]|$)` +
			`|(?:之前|以前|先前|此前|早先|原先)(?:我们|咱们|我|你|您)`)
)

func earlierClausesZH(s string) bool {
	for _, c := range earlierClauseZHRe.FindAllString(s, -1) {
		if earlierWhenZHRe.MatchString(c) && earlierAskZHRe.MatchString(c) {
			return true
		}
	}
	return false
}

func earlierHasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// Word lists, each word with a space on both sides.
const earlierIrregular = ` did was were had been done gone seen hit saw got ran made chose chosen
 wrote written said told found left went took taken gave given thought spoke spoken broke broken
 built began brought put set sent kept lost came knew meant read won stuck understood drew fell
 felt led let paid sat shot shut sold slept spent split spread stood struck taught threw woke wore
 forgot forgotten `

const earlierNotPast = ` need feed seed speed embed proceed succeed exceed indeed bleed breed
 greed weed deed heed steed tweed `
