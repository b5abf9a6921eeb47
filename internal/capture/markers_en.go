package capture

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
)

// English rules. Every pattern reads markSentence.low: lowercase ASCII,
// straight apostrophes, inline code as "`x`", quoted strings as `"q"`.

// enLead is the filler a clause may start with before its real subject.
const enLead = `^(?:(?:please|pls|plz|and|also|so|but|ok|okay|oh|btw|just|again|hey|yes|yeah|yep|right|alright|fyi|ps|note|reminder|remember|important|kindly|then|one more thing|general rule|golden rule|rule|note that|reminder that|remember that|for the record|oh and|and also|also please|and please)(?:[,:!-]+)?\s+)*`

var (
	enFiller = lazyRE(enLead)

	enQuestionStart = lazyRE(enLead + `(?:can|could|would|will|should|shall|does|did|is|are|am|was|were|has|have|had|may|might|must|what|why|how|which|who|whom|whose|where|any idea|isn'?t|aren'?t|doesn'?t|didn'?t|won'?t|wouldn'?t|shouldn'?t|can'?t|couldn'?t|do (?:we|you|i|they|it|he|she|the|this|that|these|those|our|my|your|all|any|people))\b`)
	enHypothetical  = lazyRE(`^(?:what if|suppose|supposing|imagine|say we|let'?s say|hypothetically|in theory|whether|assuming|pretend|in an ideal world|ideally)\b`)
	enConditional   = lazyRE(`^(?:if|even if|only if|unless|in case|as long as|provided)\b`)
	enTemporal      = lazyRE(`^(?:whenever|every time|each time|any ?time|when|before|after|once|while|until)\b`)
	enHabitual      = lazyRE(`^(?:whenever|every time|each time|any ?time|(?:when|before|after) (?:you |we )?(?:commit|push|merg|deploy|releas|open|add|creat|chang|touch|edit|modify|updat|writ|bump|renam|start|finish|tag|cut))`)

	// enVeto marks what is tentative, reported or hypothetical.
	enVeto = lazyRE(`\b(?:if|unless|whether|maybe|perhaps|probably|possibly|might|could|would|wonder|wondering|considering|consider|thinking|think|thinks|thought|guess|suppose|not sure|unsure|used to|supposed to|said|says|say|saying|state|states|stated|told|tells|mentioned|mentions|suggested|suggests|suggest|claims?|claimed|wrote|writes|argued|argues|believes?|believed|recommends?|recommended|insists?|insisted|wants|wanted|asked|asks|according to|apparently|supposedly|hope|hopefully|wish|pretend|imagine|hypothetically|seems?|seemed|heard|reckon|reckons|feels like|what if|propose|proposed|proposing|should we|shall we|do we|how about)\b`)
	// enOwnWords removes the user's own framing from a prefix before the
	// veto: "as I said", "I want you to".
	enOwnWords   = lazyRE(`\b(?:as i (?:said|say|mentioned)|like i said|i say|i (?:have |'ve )?(?:said|told you|asked you|mentioned)|i keep telling you|i (?:want|need|expect|'d like|would like)(?: you)? to)\b`)
	enNegated    = lazyRE(`(?:n't\b|\bnot\b|\bnever\b|\bno longer\b|\bhardly\b|\brarely\b|\bseldom\b|\bbarely\b)`)
	enOneOff     = lazyRE(`\b(?:this|that) (?:time|one|file|function|method|test|pr|branch|commit|change|bug|issue|line|part|case|module|component|endpoint|query|script|step|ticket|class|variable|folder|directory|migration|task)\b|\b(?:for now|right now|yet|today|tonight|this morning|this afternoon|this evening|at the moment|for the moment|temporarily|just now|for a bit|for a second|for a minute|for this|in this (?:pr|file|function|commit|branch|test|case|one)|until (?:i|we|it))\b`)
	enPronounEnd = lazyRE(`\b(?:it|this|that|them|these|those|anything|everything|yet)\W*$`)
	enOneOffThis = lazyRE(`\b(?:this|that) (?:time|one|file|function|method|test|pr|branch|commit|change|bug|issue|line|part|case)\b`)

	enTicketIntro = lazyRE(`\b(?:i'?m|i am)\s+(?:currently\s+|now\s+|still\s+|mostly\s+|actually\s+|just\s+)?(?:on|working on|doing|handling|picking up|assigned to|taking|tackling|fixing|finishing)\s+(?:ticket\s+|issue\s+|story\s+|bug\s+|task\s+)?|\b(?:my|the)\s+(?:current\s+)?(?:ticket|issue|story|task)\s+(?:is|is now|:)\s+|\bthe (?:ticket|issue) i'?m (?:on|working on) (?:is|is now)\s+|\bcurrent ticket(?:\s+is|:)\s+`)
	enTicket      = lazyRE(`^(?:[A-Z][A-Z0-9]{1,9}-[0-9]{1,6}|#[0-9]{1,7})$`)
	enWorkingOn   = lazyRE(`\b(?:i'?m|i am)\s+(?:currently\s+|now\s+|still\s+|mostly\s+|actually\s+)?working on\s+`)
	enOS          = lazyRE(`\b(?:i'?m|i am)\s+(?:on|using|running)\s+((?:macos|mac os|windows|linux|ubuntu|debian|fedora|arch linux|nixos|wsl2?)(?:\s+v?[0-9]+(?:\.[0-9]+)*)?)\b`)

	enDecided  = lazyRE(`\b(?:we|i|the team|our team|team)(?:'ve|'d)?\s+(?:have\s+|had\s+|finally\s+|just\s+|already\s+|all\s+|both\s+|collectively\s+|eventually\s+|officially\s+|ultimately\s+)*(?:decided|agreed|chose|settled on|went with|picked|opted|standardi[sz]ed on|committed to|concluded)\b`)
	enDecision = lazyRE(`\b(?:the|our|my|final)\s+(?:final\s+)?decision\s+(?:is|was|:)|^decision\s*:|\bdecided\s*:|\blet'?s\s+(?:just\s+)?(?:go with|stick with|standardi[sz]e on|settle on|stay with)\b|\bwe(?:'re| are)\s+(?:going|sticking|staying)\s+with\b`)
	enWillUse  = lazyRE(`\b(?:we'?ll|we will|we'?re going to|we are going to|we'?re gonna|let'?s|let us|we'?re|we are|i'?ll|i will)\s+(?:just\s+|still\s+|now\s+|keep\s+)?(?:use|using|go with|going with|stick with|sticking with|keep|keeping|adopt|adopting|switch to|switching to|move to|moving to|migrate to|migrating to|drop|dropping|replace|replacing)\b`)
	enContrast = lazyRE(`\bnot\b|\binstead\b|\brather than\b|\bover\b|\bbecause\b|\bsince\b|\bfrom now on\b|\bgoing forward\b|\bfor good\b|\bfor everything\b|\beverywhere\b|\bfor all\b|\bacross\b`)

	enMoved = lazyRE(`\b(?:we|i|the team|our team)(?:'ve)?\s+(?:have\s+|just\s+|recently\s+|finally\s+|already\s+|now\s+|officially\s+|fully\s+|completely\s+)*(?:moved|switched|migrated|changed|transitioned|ported|upgraded|swapped|cut)\b`)
	enIsNow = lazyRE(`\s(?:is|are)\s+now\s+|\snow\s+(?:is|are)\s+`)
	enNowVb = lazyRE(`\s(?:now|currently)\s+(?:runs on|runs in|lives on|lives in|points to|points at|uses|deploys to|goes to|is on|is hosted on|is deployed to|runs|targets)\s+`)
	enWeNow = lazyRE(`\bwe\s+(?:now\s+|currently\s+)?(?:deploy|host|host everything|run|run everything)\s+(?:to|on)\s+`)
	enNowIn = lazyRE(`\b(?:now|currently)\b`)
	enIs    = lazyRE(`\s(?:is|:)\s+`)

	enPrefer   = lazyRE(`\bi(?:'d| would)?\s+(?:really\s+|strongly\s+|generally\s+|usually\s+|much\s+|always\s+|still\s+|definitely\s+|personally\s+|actually\s+)*prefer\b|\bi(?:'d| would)\s+(?:really\s+|much\s+|generally\s+)*rather\b|\bmy\s+(?:strong\s+|personal\s+|general\s+)?preference\s+(?:is|would be|:)|\bi have a (?:strong\s+)?preference for\b`)
	enLikeMore = lazyRE(`\bi\s+(?:really\s+|much\s+|definitely\s+)?like\s+(\S+)(?:\s+\S+){0,6}?\s+(?:better|more)\b`)
	enLikeWay  = lazyRE(`\bi\s+(?:really\s+|generally\s+|usually\s+|always\s+)?(?:like|love)\s+(?:to\s+(?:keep|have|use|see|get|write|run|do|read)|it when|when|my|having|using|keeping|seeing|small|short|concise|explicit|early)\b`)
	enDislike  = lazyRE(`\bi\s+(?:really\s+)?(?:don'?t|do not)\s+like\s+(?:it\s+)?when\b|\bi\s+(?:really\s+)?(?:hate|dislike|can'?t stand)\s+(?:it\s+when|when|long|verbose|wordy|unnecessary|extra|excessive|huge|deeply|nested|magic|clever|trailing|emojis?|walls of)\b`)
	enIUse     = lazyRE(`\bi\s+(?:always\s+|usually\s+|mostly\s+|only\s+|generally\s+|normally\s+|personally\s+)?use\s+`)
	enKeep     = lazyRE(`^(?:always\s+)?keep\s+(?:your\s+|the\s+|all\s+|my\s+|our\s+)?(?:answers|responses|replies|explanations|summaries|messages|output|comments|commit messages|prs|pull requests|diffs|changes|functions|commits|code reviews|reviews|emails|docs|tests)\s+`)
	enBe       = lazyRE(`^(?:always\s+)?(?:be|stay)\s+(?:more\s+|very\s+|extra\s+|super\s+)?(?:concise|brief|terse|direct|succinct|blunt)\b`)
	enAnswerIn = lazyRE(`^(?:always\s+)?(?:answer|reply|respond|write|talk|explain|communicate)\s+(?:to me\s+)?in\s+(?:english|chinese|mandarin|german|french|spanish|japanese|korean|portuguese|plain english|simplified chinese|bullet points)\b`)
	enStop     = lazyRE(`^stop\s+(?:adding|using|writing|putting|creating|generating|including|suggesting|apologi[sz]ing|making|leaving|inserting|wrapping|running|pushing|committing|renaming|reformatting|mocking)\b`)
	enImpPref  = lazyRE(`^prefer\s+`)

	enAlways      = lazyRE(`\b(?:always|never)\b`)
	enModal       = lazyRE(`\b(?:must|mustn'?t|must not|shouldn'?t|should not|should|needs? to|ha(?:ve|s) to)\b`)
	enImperNeg    = lazyRE(`^(?:don'?t|do not|never ever|do never)\s+`)
	enImperLead   = lazyRE(`^(?:avoid|only ever|only use|under no circumstances|no more|make sure to|make sure you|make sure that|make sure (?:every|all|each|no|nothing|our|we|the)|be sure to|remember to|always remember to|do not ever|don'?t ever)\b`)
	enUseNot      = lazyRE(`^use\s+.+?(?:,?\s+not\s+|\s+instead of\s+|\s+rather than\s+|\s+over\s+|\s+for (?:all|every|any|each)\s|\s+everywhere\b|\s+across\s|\s+throughout\s)`)
	enNoX         = lazyRE(`^no\s+([a-z-]+)\s+(?:in|on|to|inside|within|without|before|after|for|into)\b`)
	enFromNow     = lazyRE(`\b(?:from now on|going forward|moving forward|from here on(?: out)?|henceforth|in (?:the )?future|for future reference|as a (?:general )?rule|by default|in general)\b`)
	enTeamStart   = lazyRE(enLead + `(?:we|our|the team|everyone|everybody)\b`)
	enTentative   = lazyRE(`\b(?:maybe|perhaps|probably|possibly|might|could|would)\b`)
	enVagueWork   = lazyRE(`^(?:a |the )?(?:fix|it|this|that|something|stuff|things|them|what|bugs?)\b`)
	enDecidedIdle = lazyRE(`^\s*(?:up|to disagree|nothing|yet|on nothing)\b`)
	enPronounObj  = lazyRE(`^\s*(?:it|this|that|them|these|those|what|whatever|something|one|him|her)\b`)
	enMustIdle    = lazyRE(`^(?:have (?:\w+ed|been|seen|done|gotten|known|taken|given|written|broken|forgotten|had|got|made|lost|left|missed)|'ve|say|admit|confess|be (?:getting|going|missing|wrong|right|tired|joking|kidding|a|the|something|somewhere|it))\b`)
	enTeamRest    = lazyRE(`^(?:we|our|the team|everyone|everybody|all|every|each)\b`)
	enThingRest   = lazyRE(`^(?:it|this|that|there|he|she|they)\b`)
	enHabitIdle   = lazyRE(`^(?:into|out|through|across|up|it|this|that|them|these|those|what|whatever|something|to|a lot)\b`)
	enImperVerb   = lazyRE(`^(?:run|use|add|update|regenerate|bump|check|write|commit|push|rebase|squash|rebuild|restart|ask|tell|include|mention|ping|notify|document|lint|format|test|rerun|re-run|clear|delete|remove|tag|sign|review|open|create|put|keep|call|wrap|prefix|start|end|follow|read|verify|double-check|confirm|pin|leave|mark|label|link|log|record|back up|squash-merge|merge|regen|recompile|reformat|explain|describe|note|justify|announce|attach|reference|cite|flag|warn)\b`)

	enWeHabit = lazyRE(`\b(?:we|everyone|everybody|the team|our team)\s+(?:all\s+|always\s+|usually\s+|generally\s+|typically\s+|normally\s+|mostly\s+|only\s+|just\s+|currently\s+|now\s+|still\s+|exclusively\s+|strictly\s+)*(?:use|uses|prefer|follow|squash|squash-merge|rebase|tag|name|prefix|suffix|write|keep|put|store|pin|vendor|require|deploy|release|version|format|lint|document|review|merge|commit|mock|ship|target|support|avoid|enforce|sign|generate|bump|group|sort|colocate|stick to|rely on|host|publish|annotate|log|structure|organi[sz]e|check in|default to|run|test|build|spell|capitalize|indent|wrap|lowercase|uppercase)\s+(\S+)`)
	enWeNot   = lazyRE(`\bwe\s+(?:don'?t|do not|never)\s+(?:use|commit|push|merge|deploy|store|log|vendor|mock|ship|support|allow|accept|write|put|squash|rebase|release|pin|check in|hardcode|expose)\s+(\S+)`)
	enQuant   = lazyRE(`^(?:every|all|each|any)\s+(?:[a-z0-9_./-]+\s+){0,3}?(?:must|should|needs?|requires?|has to|have to|gets?|goes|go|lives?|uses?|follows?|starts?|ends?|owns?|has|have|handles?|exposes?|runs?|logs?|writes?|reads?|ships?|keeps?|stores?|returns?|emits?|depends?)\b`)
	enOurX    = lazyRE(`\bour\s+((?:[a-z0-9_./-]+\s+){0,3}?[a-z0-9_./-]+)\s+(start|starts|begin|begins|follow|follows|go|goes|live|lives|use|uses|end|ends|must|should|need to|needs to|have to|has to|always|never|are named|is named|are prefixed|is prefixed|are written|is written|get|gets|are|is|stay|stays|belong|belongs|run|runs|target|targets|require|requires|include|includes|log|logs|emit|emits|return|returns|expose|exposes|respond|responds|write|writes|store|stores|ship|ships|deploy|deploys|publish|publishes|import|imports|depend|depends|own|owns|live|handle|handles)\b\s*(\S*)`)
	enConvNm  = lazyRE(`\b(?:the|our|team|house|project|repo|code)\s+(?:convention|rule|standard|style|policy|norm|guideline|style guide)s?\s+(?:is|are|says|:)|\bby convention\b|\bhouse style\b|^convention\s*:`)
)

// enConventionNouns are the things a team rule is about. Read-only.
var enConventionNouns = markWordSet(`commit commits message messages branch branches name names pr prs
		request requests title titles tag tags release releases version versions migration migrations
		import imports export exports file files filename filenames folder folders directory directories
		component components module modules package packages function functions method methods class
		classes variable variables constant constants var vars test tests fixture fixtures endpoint
		endpoints route routes api apis response responses error errors log logs column columns table
		tables id ids key keys secret secrets config configs doc docs readme changelog comment comments
		type types interface interfaces struct structs dependency dependencies deps flag flags hook hooks
		script scripts query queries css style styles indentation code changes review reviews deploy
		deploys deployment deployments image images service services schema schemas model models handler
		handlers controller controllers spec specs ticket tickets issue issues pipeline pipelines build
		builds job jobs workflow workflows helper helpers util utils mock mocks env docstring docstrings
		pull hotfix hotfixes feature features pr-titles`)

// enFail are verbs that make "X always …" a complaint about what happens,
// not a rule.
var enFail = lazyRE(`^(?:fails?|failing|breaks?|crash(?:es)?|flakes?|hangs?|times? out|timeout|dies|takes?|pass(?:es)?|seems?|looks?|shows?|ends? up|gets? stuck|works?|blows? up|chokes?|happens?|comes? back|goes? down|hits?|complains?|forgets?|miss(?:es)?|gives?|returns? (?:an? )?(?:error|500|404)|throws?|errors?|slows?|makes? me|surprises?|confuses?)\b`)

// enComplaint marks a clause that describes what goes wrong.
var enComplaint = lazyRE(`\b(?:late|slow(?:ly)?|badly|poorly|wrong|broken|behind|flaky|forever|annoying|weird|random(?:ly)?|somehow)\b`)

// enPast are past forms that make "we always …" history, not a rule.
var enPast = lazyRE(`^(?:\w+ed|had|got|was|were|did|went|knew|thought|said|told|made|took|saw|found|ran|wrote|broke|forgot|came|gave|left|lost|felt|heard|meant|sent|spent|built|caught|brought|bought|began|became|chose|drove|fell|grew|held|led|paid|stood|stuck|won|been|seen|done|gotten|known|taken|given|written|broken|forgotten|shown|thrown|chosen|heard|tried|used)\b`)

// enNotPast are base forms ending in -ed.
var enNotPast = map[string]bool{"need": true, "feed": true, "seed": true, "embed": true, "speed": true, "proceed": true, "succeed": true, "exceed": true, "shred": true, "bleed": true}

// enIdle are imperatives with nothing durable in them ("don't worry").
var enIdle = lazyRE(`^(?:worry|bother|know|think|mind|care|get|understand|see|have|need|want|hesitate|panic|apologi[sz]e|stop|wait|rush|overthink|feel|trust|look|let|go|say|tell me|be (?:sorry|afraid|shy|silly|ridiculous|like that)|do (?:that|this|it|anything|so)|make (?:it|that|this)|forget|change anything|touch anything|ask|answer|reply|respond yet|again|appreciate|love|enjoy|like|hate|happy|glad|welcome|take a (?:look|break|walk|day|nap|step back)|call it|sleep|rest|give up|try|skip it|leave it)\b`)

func (s *markSentence) enDraft() (memory.Draft, bool) {
	t := s.low
	if enQuestion(t) {
		return memory.Draft{}, false
	}
	from, habitual, ok := enMainClause(t)
	if !ok {
		return memory.Draft{}, false
	}
	for _, rule := range []func(int) (memory.Draft, bool){
		s.enTicket, s.enWorkingOn, s.enDecision, s.enChange, s.enPreference, s.enRule, s.enConvention,
	} {
		if d, ok := rule(from); ok {
			return d, true
		}
	}
	if habitual {
		return s.enHabitual(from)
	}
	return memory.Draft{}, false
}

// enQuestion reports whether t asks rather than tells.
func enQuestion(t string) bool {
	t = strings.TrimRight(t, " .)\"'")
	return strings.HasSuffix(t, "?") || enQuestionStart.MatchString(t)
}

// enMainClause returns where markers may be looked for: after a leading
// conditional or temporal clause, nowhere in a hypothetical.
func enMainClause(t string) (from int, habitual, ok bool) {
	lead := len(enFiller.FindString(t))
	rest := t[lead:]
	switch {
	case enHypothetical.MatchString(rest):
		return 0, false, false
	case enConditional.MatchString(rest):
		if i := strings.Index(rest, ", "); i >= 0 {
			return lead + i + 2, false, true
		}
		if i := strings.Index(rest, " then "); i >= 0 {
			return lead + i + 6, false, true
		}
		return 0, false, false
	case enTemporal.MatchString(rest):
		h := enHabitual.MatchString(rest)
		if i := strings.Index(rest, ", "); i >= 0 {
			return lead + i + 2, h, true
		}
		return lead, false, true
	}
	return lead, false, true
}

// enClauseStart returns where the clause holding position p begins.
func enClauseStart(t string, from, p int) int {
	best := from
	for _, sep := range []string{", ", "; ", ": ", " - ", " — ", " – ", "(", " but ", " and ", " so "} {
		if i := strings.LastIndex(t[from:p], sep); i >= 0 && from+i+len(sep) > best {
			best = from + i + len(sep)
		}
	}
	return best
}

// enClauseEnd returns where the clause holding position p ends.
func enClauseEnd(t string, p int) int {
	end := len(t)
	for _, sep := range []string{", ", "; ", " but ", " because ", " since ", " so ", " which ", " - ", " — "} {
		if i := strings.Index(t[p:], sep); i >= 0 && p+i < end {
			end = p + i
		}
	}
	return end
}

// enClear reports whether the marker at p stands: nothing tentative,
// reported or hypothetical before it, no negation in its clause, nothing
// tentative after it in its clause.
func (s *markSentence) enClear(from, p, end int) bool {
	t := s.low
	prefix := enOwnWords.ReplaceAllString(t[from:p], " ")
	if enVeto.MatchString(prefix) {
		return false
	}
	cs := enClauseStart(t, from, p)
	if enNegated.MatchString(t[cs:p]) {
		return false
	}
	after := t[end:enClauseEnd(t, end)]
	return !enTentative.MatchString(after) || strings.Contains(after, "would rather")
}

// enFind returns the first match of re in t[from:] (absolute indexes)
// that ok accepts.
func enFind(re *lazyRegexp, t string, from int, ok func(m []int) bool) []int {
	for _, m := range re.FindAllStringSubmatchIndex(t[from:], -1) {
		for i := range m {
			if m[i] >= 0 {
				m[i] += from
			}
		}
		if ok(m) {
			return m
		}
	}
	return nil
}

func (s *markSentence) enDecision(from int) (memory.Draft, bool) {
	t := s.low
	ok := func(m []int) bool {
		if !s.enClear(from, m[0], m[1]) {
			return false
		}
		rest := t[m[1]:]
		if to := strings.TrimSpace(rest); enDecidedIdle.MatchString(rest) || strings.HasPrefix(to, "to ") && enIdle.MatchString(to[3:]) {
			return false
		}
		return markEnContent(t[m[1]:]) > 0 && !enOneOffThis.MatchString(t[m[1]:])
	}
	if enFind(enDecided, t, from, ok) != nil || enFind(enDecision, t, from, ok) != nil {
		return s.note(memory.ClassDecision, markConfExplicit)
	}
	if enFind(enWillUse, t, from, func(m []int) bool {
		return ok(m) && enContrast.MatchString(t[m[1]:])
	}) != nil {
		return s.note(memory.ClassDecision, markConfExplicit)
	}
	return memory.Draft{}, false
}

func (s *markSentence) enPreference(from int) (memory.Draft, bool) {
	t := s.low
	ok := func(m []int) bool { return s.enClear(from, m[0], m[1]) && markEnContent(t[m[1]:]) > 0 }
	if enFind(enPrefer, t, from, ok) != nil || enFind(enLikeWay, t, from, ok) != nil || enFind(enDislike, t, from, ok) != nil {
		return s.note(memory.ClassPreference, markConfExplicit)
	}
	if enFind(enLikeMore, t, from, func(m []int) bool {
		switch t[m[2]:m[3]] {
		case "this", "that", "it", "yours", "your", "the", "these", "those", "both":
			return false
		}
		return s.enClear(from, m[0], m[1])
	}) != nil {
		return s.note(memory.ClassPreference, markConfExplicit)
	}
	if enFind(enIUse, t, from, func(m []int) bool {
		return s.enClear(from, m[0], m[1]) && !enPronounStart(t[m[1]:]) && !enOneOff.MatchString(t[m[1]:]) && markEnContent(t[m[1]:]) > 0
	}) != nil {
		return s.note(memory.ClassPreference, markConfExplicit)
	}
	lead := from + len(enFiller.FindString(t[from:]))
	rest := t[lead:]
	for _, re := range []*lazyRegexp{enKeep, enBe, enAnswerIn, enStop, enImpPref} {
		if m := re.FindStringIndex(rest); m != nil && !enOneOff.MatchString(rest) && (re == enBe || markEnContent(rest[m[1]:]) > 0 || re == enAnswerIn) {
			return s.note(memory.ClassPreference, markConfExplicit)
		}
	}
	return memory.Draft{}, false
}

// enPronounStart reports whether a clause starts with a bare pronoun
// object: "use it", "use this one".
func enPronounStart(rest string) bool {
	return enPronounObj.MatchString(rest)
}

// enRule reads constraints: always, never, must, don't, make sure, from
// now on.
func (s *markSentence) enRule(from int) (memory.Draft, bool) {
	t := s.low
	// Clause-initial imperatives, at the start or after a comma.
	starts := []int{from}
	for i := from; i < len(t); i++ {
		if t[i] == ',' || t[i] == ';' || t[i] == ':' {
			starts = append(starts, i+1)
		}
	}
	for _, st := range starts {
		lead := st + len(enFiller.FindString(strings.TrimLeft(t[st:], " "))) + len(t[st:]) - len(strings.TrimLeft(t[st:], " "))
		rest := t[lead:]
		if !s.enClear(from, lead, lead) {
			continue
		}
		var body string
		if m := enImperNeg.FindStringIndex(rest); m != nil {
			body = rest[m[1]:]
		} else if m := enImperLead.FindStringIndex(rest); m != nil {
			body = rest[m[1]:]
			if w := strings.Fields(body); len(w) > 0 && markIdleNoun[strings.Trim(w[0], ",.!")] {
				continue
			}
		} else if enUseNot.MatchString(rest) {
			body = rest
		} else if m := enNoX.FindStringSubmatchIndex(rest); m != nil && !markIdleNoun[rest[m[2]:m[3]]] {
			body = rest
		} else {
			continue
		}
		clause := body[:enClauseEnd(body, 0)]
		if enIdle.MatchString(strings.TrimSpace(body)) || enPronounEnd.MatchString(clause) || enOneOff.MatchString(body) || markEnContent(body) == 0 {
			continue
		}
		return s.note(memory.ClassPreference, markConfRule)
	}
	// always / never, with a subject that makes them a rule.
	if m := enFind(enAlways, t, from, func(m []int) bool {
		next := strings.TrimSpace(t[m[1]:])
		if strings.HasPrefix(next, "mind") || strings.HasPrefix(next, "again") || enPastWord(next) {
			return false
		}
		if !s.enClear(from, m[0], m[1]) || enOneOff.MatchString(t[m[1]:]) || markEnContent(t[m[1]:]) == 0 {
			return false
		}
		return !enPronounEnd.MatchString(t[m[1]:enClauseEnd(t, m[1])])
	}); m != nil {
		cs := enClauseStart(t, from, m[0])
		subj, modal := enSubject(t[cs:m[0]])
		if subj == enSubjImperative && cs > from && enTeamStart.MatchString(t[from:]) {
			// "Our images are built in CI, never locally": the clause
			// borrows the sentence's subject.
			subj = enSubjTeam
		}
		next := strings.TrimSpace(t[m[1]:])
		switch {
		case subj != enSubjImperative && !modal && (enFail.MatchString(next) || enComplaint.MatchString(next[:enClauseEnd(next, 0)])):
		case subj == enSubjYou && !modal:
		case subj == enSubjUser || subj == enSubjImperative || subj == enSubjYou:
			if !enIdle.MatchString(next) {
				return s.note(memory.ClassPreference, markConfRule)
			}
		case subj == enSubjTeam || subj == enSubjNoun:
			return s.note(memory.ClassConvention, markConfRule)
		}
	}
	// must, should, need to with a subject that makes them a rule.
	if m := enFind(enModal, t, from, func(m []int) bool {
		next := strings.TrimSpace(t[m[1]:])
		if enMustIdle.MatchString(next) {
			return false
		}
		return s.enClear(from, m[0], m[1]) && !enOneOff.MatchString(t[m[1]:]) && markEnContent(t[m[1]:]) > 0 &&
			(strings.HasPrefix(next, "have ") || !enIdle.MatchString(next)) && !enPronounEnd.MatchString(t[m[1]:enClauseEnd(t, m[1])])
	}); m != nil {
		cs := enClauseStart(t, from, m[0])
		subj, _ := enSubject(t[cs:m[0]])
		word := t[m[0]:m[1]]
		strong := strings.HasPrefix(word, "must")
		switch {
		case subj == enSubjTeam || subj == enSubjNoun:
			if strong || strings.HasPrefix(t[cs:m[0]], "our ") || enConventionNouns[enLastWord(t[cs:m[0]])] {
				return s.note(memory.ClassConvention, markConfRule)
			}
		case subj == enSubjYou || subj == enSubjImperative:
			if strong || strings.Contains(word, "n't") || strings.Contains(word, "not") {
				return s.note(memory.ClassPreference, markConfRule)
			}
		}
	}
	// from now on, going forward, as a rule: the rest decides the class.
	if m := enFind(enFromNow, t, from, func(m []int) bool {
		return s.enClear(from, m[0], m[1]) && markEnContent(t[m[1]:]+" "+t[from:m[0]]) > 0 && !enOneOff.MatchString(t[from:])
	}); m != nil {
		rest := strings.TrimLeft(t[m[1]:], " ,:")
		if rest == "" || strings.HasPrefix(rest, ".") {
			rest = t[from:m[0]]
		}
		rest = strings.TrimPrefix(rest, enFiller.FindString(rest))
		if enTeamRest.MatchString(rest) {
			return s.note(memory.ClassConvention, markConfRule)
		}
		if enThingRest.MatchString(rest) {
			return memory.Draft{}, false
		}
		return s.note(memory.ClassPreference, markConfRule)
	}
	return memory.Draft{}, false
}

// markIdleNoun are the words after "no" that make a reply, not a rule.
var markIdleNoun = map[string]bool{
	"idea": true, "problem": true, "problems": true, "worries": true, "way": true, "need": true,
	"thanks": true, "clue": true, "luck": true, "change": true, "changes": true, "issue": true,
	"issues": true, "error": true, "errors": true, "difference": true, "reason": true, "rush": true,
	"hurry": true, "matter": true, "doubt": true, "offense": true, "wonder": true, "one": true,
	"time": true, "progress": true, "response": true, "output": true, "results": true,
	"question": true, "questions": true, "excuses": true, "talk": true, "more": true,
}

// enPastWord reports whether the next word is a past form.
func enPastWord(next string) bool {
	w := strings.Fields(next)
	if len(w) == 0 {
		return false
	}
	return enPast.MatchString(w[0]) && !enNotPast[w[0]]
}

func enLastWord(s string) string {
	w := strings.Fields(s)
	if len(w) == 0 {
		return ""
	}
	return strings.Trim(w[len(w)-1], ",.")
}

type enSubj int

const (
	enSubjNone       enSubj = iota
	enSubjImperative        // no subject: an instruction
	enSubjUser              // I
	enSubjYou               // you
	enSubjTeam              // we, our X, everyone
	enSubjNoun              // a thing a team rule is about: commits, PR titles
)

// enSubject reads the subject of a rule from the clause text before its
// marker, and whether a modal (should, must, need to) came with it.
func enSubject(prefix string) (enSubj, bool) {
	prefix = strings.TrimPrefix(strings.TrimSpace(prefix), enFiller.FindString(strings.TrimSpace(prefix)))
	words := strings.Fields(prefix)
	modal := false
	for len(words) > 0 {
		w := strings.Trim(words[len(words)-1], ",.:")
		switch w {
		case "should", "must", "need", "needs", "have", "has", "got", "gotta", "will", "shall":
			modal = true
		case "to", "also", "all", "just", "really", "definitely", "absolutely", "strictly", "generally",
			"usually", "typically", "normally", "only", "still", "please", "then", "basically", "both",
			"each", "always", "ever", "do", "does":
		case "we'll", "you'll", "i'll":
			modal = true
			words[len(words)-1] = strings.TrimSuffix(w, "'ll")
			continue
		default:
			goto subject
		}
		words = words[:len(words)-1]
	}
subject:
	if len(words) == 0 {
		return enSubjImperative, modal
	}
	last := strings.Trim(words[len(words)-1], ",.:")
	switch last {
	case "you", "u":
		return enSubjYou, modal
	case "i":
		return enSubjUser, modal
	case "we", "us", "everyone", "everybody", "team", "folks":
		return enSubjTeam, modal
	case "it", "this", "that", "there", "he", "she", "they", "it's", "that's", "there's", "he's", "she's",
		"they're", "which", "who", "what", "something", "someone", "nobody", "i'm", "i've", "we're", "we've",
		"you're", "you've", "is", "are", "was", "were", "has", "had", "be", "been":
		return enSubjNone, modal
	}
	for _, w := range words {
		if w == "our" {
			return enSubjTeam, modal
		}
	}
	if enConventionNouns[last] {
		return enSubjNoun, modal
	}
	if modal && len(words) <= 5 {
		return enSubjNoun, modal
	}
	return enSubjNone, modal
}

func (s *markSentence) enConvention(from int) (memory.Draft, bool) {
	t := s.low
	if enFind(enConvNm, t, from, func(m []int) bool { return s.enClear(from, m[0], m[1]) }) != nil && markEnContent(t) > 1 {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if enFind(enWeHabit, t, from, func(m []int) bool {
		obj := t[m[2]:]
		if enHabitIdle.MatchString(obj) {
			return false
		}
		return s.enClear(from, m[0], m[1]) && !enOneOff.MatchString(t[m[0]:]) && markEnContent(obj) > 0
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if enFind(enWeNot, t, from, func(m []int) bool {
		return s.enClear(from, m[0], m[0]) && !enPronounStart(t[m[2]:]) && !enOneOff.MatchString(t[m[0]:]) && markEnContent(t[m[2]:]) > 0
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	lead := from + len(enFiller.FindString(t[from:]))
	if enQuant.MatchString(t[lead:]) && s.enClear(from, lead, lead) && !enOneOff.MatchString(t[lead:]) && markEnContent(t[lead:]) > 1 {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if enFind(enOurX, t, from, func(m []int) bool {
		noun := strings.Fields(t[m[2]:m[3]])
		head := noun[len(noun)-1]
		verb := t[m[4]:m[5]]
		next := t[m[6]:m[7]]
		switch verb {
		case "is", "are", "get", "gets", "run", "runs", "stay", "stays":
			if !enConventionNouns[head] || markStateValue(next) || next == "now" || next == "" {
				return false
			}
			if (verb == "get" || verb == "gets") && !strings.HasSuffix(next, "ed") {
				return false
			}
		case "always", "never":
			if enFail.MatchString(next) || enPastWord(next) {
				return false
			}
		}
		return s.enClear(from, m[0], m[1]) && !enOneOff.MatchString(t[m[0]:]) && markEnContent(t[m[4]:]) > 0
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	return memory.Draft{}, false
}

// enHabitual reads "whenever you touch the schema, regenerate the types":
// an instruction tied to a recurring event.
func (s *markSentence) enHabitual(from int) (memory.Draft, bool) {
	rest := s.low[from:]
	rest = rest[len(enFiller.FindString(rest)):]
	if enImperVerb.MatchString(rest) && !enOneOff.MatchString(rest) && !enPronounEnd.MatchString(rest) && markEnContent(rest) > 1 {
		return s.note(memory.ClassPreference, markConfRule)
	}
	return memory.Draft{}, false
}
