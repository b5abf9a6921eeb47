package capture

import (
	"strings"
)

// The patterns below run on one clause of folded text (see fold): lower
// case, Turkish letters as ASCII, typographic apostrophes as '. Latin
// patterns are anchored at the clause start, after leading fillers are
// cut; Chinese and Japanese ones may match anywhere in the clause, because
// time words and subjects move freely there.

// selfNouns are things a person asks memory about themselves or their
// team: "what's my <noun>", "what is our <noun>".
const selfNouns = `(?:name|full name|first name|last name|email|e-mail|email address|e-mail address|mail|username|user name|handle|login|role|job|job title|title|position|team|manager|boss|timezone|time zone|location|city|country|language|native language|birthday|age|pronouns|company|employer|github|editor|ide|shell|os|setup|stack|tech stack|preference|preferences|rule|rules|convention|conventions|style|commit format|branch naming|ticket|task|branch|project|issue|story|pr|pull request|focus|plan|todo|to-do|todo list|schedule|deadline|priority|priorities|next step|next task|deploy target|deployment target|ci|database|db|on-call|test runner|framework|package manager|linter|formatter|workflow|process|decision|decisions|agreement)`

// workNouns are units of work a person is "on".
const workNouns = `(?:jira |github |linear )?(?:ticket|task|issue|story|bug|branch|project|pr|pull request|feature|epic|sprint|card|repo|repository|worktree|milestone|module)s?`

// tailWords may end a self-attribute question.
const tailWords = `(?: (?:again|now|currently|here|today|then|exactly|these days|right now|at the moment|please|anyway|btw))*(?: (?:for|on|in|at|with|regarding|about) [^,]{1,60})?`

var recallEN = compileAll(
	// what's my name / what is our commit format again
	`^(?:what|whats|what's|which)(?:'s| is| was| were| are|'re)? (?:my|our) (?:[\w-]+ ){0,3}`+selfNouns+`(?:'s)?`+tailWords+`$`,
	// (tell me) what my name is
	`^(?:what|which) (?:my|our) (?:[\w-]+ ){0,3}`+selfNouns+` (?:is|was|are|were)$`,
	`^who am i(?: (?:again|now|exactly|really))*$`,
	`^what am i called$`,
	`^how far (?:did|have|had) (?:we|i) (?:get|got|come|gotten)\b`,
	`^what (?:name|names) (?:did|have) (?:i|we) (?:give|gave|given) you\b`,
	`^(?:what|how much) (?:else )?do you (?:know|remember|recall) about (?:me|us|my|our|this project|the project|what i|what we)\b`,
	`^what (?:else )?do you (?:remember|recall)\b`,
	`^what (?:else )?have you (?:learned|learnt|remembered|stored|saved|noted) about (?:me|us|my|our)\b`,
	// do you (still) know / remember / recall …
	`^(?:do|did|can|could|would) you (?:still |even |actually |by any chance )?(?:know|remember|recall) (?:who i am|me\b|my |our |us\b|what (?:my|our|i|we)\b|which (?:[\w-]+ ){0,2}(?:i|we|my|our)\b|where (?:i|we)\b|when (?:i|we)\b|why (?:i|we)\b|how (?:i|we)\b|whether (?:i|we)\b|if (?:i|we)\b|the (?:name|decision|plan|reason|ticket|branch|task)\b|anything about (?:me|us|my|our)\b)`,
	`^(?:do|can) you (?:still )?(?:remember|recall)(?: (?:that|it|this|any of (?:this|that)))?$`,
	// i forgot what we decided / i can't remember my …
	`^i (?:forgot|forget|can't remember|cannot remember|don't remember|do not remember|can't recall|don't recall|lost track of) (?:what|which|where|who|when|why|how|whether|if) (?:my|our|i|we)\b`,
	`^i (?:forgot|forget|can't remember|cannot remember|don't remember|do not remember|can't recall|don't recall) (?:my|our) (?:[\w-]+ ){0,3}`+selfNouns+`$`,
	// where did i leave off / where were we
	`^where (?:did|do|have|had|were|was) (?:i|we)(?: (?:last|just|previously))? (?:leave|left|stop|stopped|get|got|end|ended|finish|finished|pause|paused|break|broke)(?: off| up| at)?\b`,
	`^where (?:was i|were we|am i|are we|i was|we were)(?: (?:at|with|on|up to)\b.*)?$`,
	`^where (?:i|we) (?:left|stopped) off\b`,
	`^what(?:'s| is| was|s) the last (?:thing|step|task|commit|change|ticket) (?:i|we)\b`,
	// what was i working on / what were we doing
	`^what (?:was|were|am|are|have|had|did) (?:i|we)(?: (?:just|last|previously|currently|still|been|actually|supposed to be|meant to be))* (?:working on|doing|up to|in the middle of|busy with|focused on|focusing on|on about|talking about|discussing|looking at|looking into|fixing|building|debugging|planning|trying to do|trying to fix|working with)\b`,
	// what did we decide / what have i done
	`^what (?:did|have|had) (?:i|we|you and i)(?: (?:just|last|already|finally|eventually|ultimately|actually|originally|previously|even|ever))* (?:end up with|ended up with|end up choosing|ended up choosing|end up picking|end up using|end up doing|end up deciding|do|done|work on|worked on|finish|finished|change|changed|fix|fixed|ship|shipped|push|pushed|commit|committed|decide|decided|agree|agreed|settle on|settled on|choose|chose|chosen|pick|picked|say|said|discuss|discussed|talk about|talked about|plan|planned|conclude|concluded|tell you|told you|ask you|asked you|mention|mentioned|note|noted|write down|land|landed|merge|merged|go with|went with|try|tried|learn|learned|figure out|figured out|deploy|deployed|release|released)\b`,
	// which ticket am i on
	`^(?:which|what) `+workNouns+` (?:am|are|was|were|have|had) (?:i|we)(?: (?:been|currently|just|still|last|previously|now))* (?:on|in|working on|working in|assigned to|doing|handling|looking at|checked out|using|fixing|focused on)\b`,
	`^what(?:'s| is| was|s) the `+workNouns+` (?:i'm|i am|we're|we are|i was|we were) (?:on|in|working on)\b`,
	// did we settle on … / have i already pushed …
	`^(?:did|have|had) (?:i|we|you and i)(?: (?:ever|already|finally|actually|even|really|yet|previously|just))* (?:decide|decided|agree|agreed|settle|settled|choose|chose|chosen|pick|picked|commit|committed|push|pushed|merge|merged|deploy|deployed|finish|finished|ship|shipped|release|released|tell you|told you|mention|mentioned|discuss|discussed|talk about|talked about|open|opened|land|landed|file|filed)\b`,
	// why did we pick …
	`^why did (?:we|i)(?: (?:decide to|choose to|end up|originally|initially|ever|even))* (?:pick|choose|go with|use|switch|move|drop|prefer|settle on|reject|decide|opt for|avoid|stop using|not use|keep|remove|add)\b`,
	`^what(?:'s| is| was|s) (?:the|our|my) (?:final |last |previous |latest |current )?(?:decision|conclusion|verdict|outcome|agreement|consensus|plan|approach|status)(?: (?:we|i) (?:made|reached|had|agreed on|came up with|settled on|decided on))?(?: (?:on|about|for|regarding|with)\b[^,]{0,60})?$`,
	`^how did (?:we|i) (?:decide|end up|settle|solve|fix|handle|resolve)\b`,
	`^when did (?:we|i)(?: (?:last|first))? [a-z]+`,
	`^what (?:was|is|were) the (?:[\w-]+ ){1,4}(?:we|i) (?:used|chose|picked|decided on|agreed on|discussed|talked about|mentioned|settled on|went with|set up|created|made|named)\b`,
	// remind me what … / tell me where i …
	`^(?:(?:can|could|would) you |please )*remind me(?: again)?,? (?:of|about|what|which|where|who|when|why|how|if|whether)\b`,
	`^(?:(?:can|could|would) you |please )*tell me(?: again)?,? (?:what|which|where|who|when|why|how|if|whether) (?:my|our|i|we|i'm|we're|i've|we've|i was|we were)\b`,
	// what's next / what's left
	`^what(?:'s| is|s) (?:next|left|remaining|left to do|still open|on my plate|on our plate|on the agenda|on the list)(?: (?:for|on) (?:me|us|today)\b.*)?$`,
	`^what (?:should|do|shall) (?:i|we) (?:do|work on|tackle|pick up|focus on|look at) (?:next|now|today)$`,
	`^(?:what|which)(?:'s| is|s) (?:the |my |our )?next (?:step|task|ticket|thing)\b`,
	// what do i prefer
	`^(?:what|which [\w-]+|how) do (?:i|we) (?:usually |normally |always |typically )?(?:prefer|like to|like my|like our|want my|want our)\b`,
	// Turkish, folded: adım ne, ben kimim, nerede kalmıştım …
	`\b(?:benim )?(?:adim|ismim|e-?posta(?:m| adresim)|e-?mail(?:im| adresim)|mail(?:im| adresim)|kullanici adim|rolum|unvanim|takimim|ekibim|saat dilimim|gorevim|ticketim|branchim|dalim|projem|isim)(?: (?:su an|simdi|acaba))? (?:ne|nedir|neydi|ne idi|neymis|hangisi|hangisiydi)(?: (?:acaba|peki|benim|simdi|hatirliyor musun))*$`,
	`\b(?:adimi|ismimi|e-?postami|e-?posta adresimi|e-?mailimi|mailimi|kim oldugumu|ne is yaptigimi)(?: [a-z']+)? (?:biliyor|hatirliyor) ?m[iu](?:s[iu]n(?:[iu]z)?)?\b`,
	`\bben kimim\b`,
	`\b(?:nerede|nerde|nereye kadar) (?:kal|gel)(?:mistim|mistik|dim|dik|mistin|mistiniz)\b`,
	`\bkaldigim(?:iz)? yer\b`,
	`\bne (?:uzerinde|ile|le) calis(?:iyordum|iyorduk|iyorum|iyoruz|tim|tik|mistim|mistik)\b`,
	`\bne(?:yle|ler)? (?:ugrasiyordum|ugrasiyorduk|yapiyordum|yapiyorduk|yapmistim|yapmistik|yaptim|yaptik)\b`,
	`\bhangi [a-z'-]+ (?:uzerinde(?:ydim|yim|ydik|yiz)|calisiyordum|calisiyorum|calisiyorduk|calisiyoruz)\b`,
	`\bhangi [a-z-]+'?(?:teyim|tayim|deyim|dayim|teydim|taydim|deydim|daydim|teyiz|tayiz|deyiz|dayiz|teydik|taydik|deydik|daydik)\b`,
	`\b(?:ne|neye|nasil) karar (?:verdik|vermistik|verdim|vermistim|kildik)\b`,
	`\bne(?:de|ye)? (?:anlasmistik|anlastik|kararlastirdik|kararlastirmistik|konusmustuk|konustuk)\b`,
	`\b(?:neden|niye|nicin)\b.*\b(?:sec(?:tik|mistik|tim|mistim)|tercih et(?:tik|mistik|tim|mistim)|kullan(?:dik|mistik)|karar ver(?:dik|mistik))\b`,
	`\bhatirl(?:iyor|ar) ?m[iu](?:s[iu]n(?:[iu]z)?)?\b`,
	`\bhatirlat(?:ir|abilir) ?m[iu]s[iu]n(?:[iu]z)?\b`,
	`\b(?:sana )?.*\bne (?:soylemistim|soyledim|demistim|dedim|anlatmistim|anlattim)\b`,
	`\b(?:commit|push|merge|deploy) (?:ettim|ettik|attim|attik|yaptim|yaptik|etmistim|etmistik) m[iu]\b`,
	`\b(?:su an(?:ki)?|simdiki|mevcut|guncel) (?:gorevim|isim|ticketim|branchim|dalim|projem) (?:ne|nedir|hangisi)\b`,
	`\bsiradaki (?:is|adim|gorev)(?:im|imiz)? (?:ne|nedir)\b`,
	// a question word with a first-person pluperfect or past continuous:
	// "hangi dosyayı düzenlemiştik", "ne yapıyordum"
	`\b(?:ne|neyi|neye|neyle|neden|niye|nerede|nerde|nereye|hangi|hangisini|kim|kimi|kimle|nasil)\b.*\b[a-z]+(?:mistim|mistik|mustum|mustuk|iyordum|iyorduk|uyordum|uyorduk)\b`,
	// a question word, a first-person past and a time word: "dün ne yaptık"
	`\b(?:dun|en son|gecen|daha once|onceki|az once)\b.*\b(?:ne|neyi|neye|neden|nerede|hangi|kim|nasil)\b.*\b[a-z]+(?:dik|dim|duk|dum|tik|tim|tuk|tum)\b`,
	`\b(?:benim|bizim) hakkimizda ne\b|\bhakkimda ne (?:biliyorsun|hatirliyorsun|biliyorsunuz)\b`,
	`\b(?:nerede|nerde) kaldigim(?:iz)?i\b`,
	`\belimdeki (?:is|gorev|ticket|task|kart)\b.*\b(?:ne|nedir|hangisi)\b`,
)

// recallLatin reports whether a clause of Latin-script text is a recall
// question.
func recallLatin(c string, question bool) bool {
	_, ok := recallLatinAt(c, question)
	return ok
}

// recallLatinAt matches the recall patterns at the start of c and returns
// where the match ends. The bare "remember …?" form counts only as a
// question: said flatly it is an instruction to remember.
func recallLatinAt(c string, question bool) (int, bool) {
	if notRecallEN.MatchString(c) {
		return 0, false
	}
	for _, re := range recallEN {
		if loc := re.FindStringIndex(c); loc != nil {
			return loc[1], true
		}
	}
	if question {
		if loc := bareRemember.FindStringIndex(c); loc != nil {
			return loc[1], true
		}
	}
	return 0, false
}

// generalRecallEN catches recall questions no fixed pattern spells out: an
// interrogative (or "catch me up", "recap …") that refers to the speaker
// and carries a history or memory word ("yesterday", "so far", "talked
// about", "remember"), and that names no artifact to inspect instead ("this
// function", "the logs", "show me").
func generalRecallEN(t string, question bool) bool {
	opener := question || whOpener.MatchString(t) || recapOpener.MatchString(t)
	return opener && selfRef.MatchString(t) && historyWord.MatchString(t) &&
		!artifactWord.MatchString(t) && !rememberThat.MatchString(t) && !notRecallEN.MatchString(t)
}

var (
	whOpener     = lazyRE(`^(?:what|whats|what's|which|where|wheres|where's|who|when|why|how|did|do|does|have|has|had|was|were|am|is|are|can|could|would|any idea)\b`)
	recapOpener  = lazyRE(`^(?:catch me up|bring me up to speed|refresh my memory|recap|give me a recap|summari[sz]e|walk me through)\b`)
	selfRef      = lazyRE(`\b(?:i|me|my|we|us|our|i'm|we're|i've|we've|myself|ourselves)\b`)
	historyWord  = lazyRE(`\b(?:last time|last session|last week|yesterday|earlier today|earlier|before the (?:break|weekend|holiday|holidays|meeting|lunch)|so far|previously|remember|recall|forgot|forget|memory|catch me up|up to speed|recap|left off|talked about|discussed|mentioned|mention|told you|tell you|decided|agreed|settled on|instructions|(?:state|status|progress) (?:of|on|with) (?:my|our))\b`)
	artifactWord = lazyRE(`\b(?:this|that|the) (?:function|file|error|code|line|test|method|class|module|command|script|query|regex|output|logs?|server|docs|documentation|stack trace|diff|syntax)\b|\bshow me\b|\blook at\b|\bsyntax\b|\bhow to\b`)
	rememberThat = lazyRE(`\b(?:remember|recall|forget|forgot|remind me) (?:that|to)\b`)
)

var bareRemember = lazyRE(`^(?:you )?(?:still )?remember (?:what|which|where|when|who|why|how|whether|if|my|our|the|me|us)\b`)

// notRecallEN vetoes troubleshooting phrased like history ("what did I do
// wrong") and reminders to act ("hatırlatır mısın" with "-mamı", "to do").
var notRecallEN = lazyRE(`\bwrong\b|\b[a-z]+(?:mam|mem)(?:iz)?[iu]\b`)

// statesLatin reports whether a clause states a value or asks for work:
// "it's prod-db-1", "my name is Ana", "add it to the README", "adım Ana".
func statesLatin(c string) bool {
	return statesEN.MatchString(c)
}

var statesEN = lazyRE(`^(?:(?:i|we|it|this|that|he|she|they|there|its|my [\w-]+|our [\w-]+|the [\w-]+)(?:'s|'re|'m|'ve| is| are| am| was| were| uses?| used| decided| prefer| want| need| will|'ll| should| must| have| had| moved| switched| changed| deploy| run| runs)\b|(?:it's|that's|i'm|we're|thats|im)\b|(?:please |pls |let's |lets |go ahead and |now |then )*(?:add|fix|create|update|run|make|write|remove|delete|change|use|put|set|commit|push|implement|refactor|rename|move|install|deploy|build|test|check|open|close|merge|rebase|revert|bump|document|generate|show|list|print|explain|review|start|stop|continue|finish|send|save|store|note|remember|keep|replace|edit)\b|(?:adim|ismim) [a-z]+$|.*\b(?:ekle|duzelt|olustur|guncelle|calistir|yaz|sil|degistir|kullan|birlestir|goster|listele|acikla|devam et|kaydet|unutma|not al)\b)`)

var recallZH = compileAll(
	`我(?:的)?(?:名字|姓名|全名|邮箱|电子邮件|邮件地址|用户名|角色|职位|职务|工作|时区|团队|账号|github(?:账号|用户名)?|手机号|生日|工号|员工号|部门)(?:是|叫)?(?:什么|啥|多少|哪个|哪里)`,
	`我(?:叫|姓)(?:什么|啥)`,
	`我是谁`,
	`(?:我|我们|咱们)(?:上次|之前|昨天|刚才|刚刚|前面|最后|上回|今天)?(?:都)?(?:做|干|写|弄|聊|说|讲|进行|搞|改|推进|讨论)到(?:了)?(?:哪|什么地方|什么程度|哪一步)`,
	`(?:上次|之前|昨天|上回)(?:我们|我)?(?:做|聊|说|讲|进行|搞)到(?:了)?(?:哪|哪一步|什么地方)`,
	`(?:我|我们|咱们)(?:上次|之前|昨天|刚才|最近|现在|目前|当前|今天|早上|上午|下午|一直|都)*(?:在|正在)(?:做|忙|干|搞|处理|开发|写|弄|讨论|聊|看|修|研究)(?:些)?(?:什么|啥)`,
	`(?:我|我们|咱们)(?:上次|之前|昨天|刚才|最近)(?:都)?(?:做|干|弄|搞|忙|聊|讨论|改)了(?:些)?(?:什么|啥)`,
	`(?:我|我们)(?:现在|目前|当前|今天|之前|上次|正)?(?:在|正在)?(?:做|负责|处理|跟进|开发)?(?:的)?(?:是)?(?:在)?哪(?:个|一个|条)(?:工单|任务|票|分支|项目|需求|问题|issue|ticket|bug|branch|pr|jira)`,
	`(?:我|我们)(?:的)?(?:当前|现在|目前)?(?:的)?(?:任务|工单|分支|项目|需求|ticket|branch|计划|下一步)(?:是)?(?:什么|啥|哪个|哪一个)`,
	`(?:我们|咱们|我|大家)(?:之前|上次|当时|最后|最终|已经)?(?:都)?(?:决定|定|商量|讨论|约定|说好|选|达成)(?:了|的|过)?(?:些)?(?:什么|啥|哪个|哪种)`,
	`(?:我们|咱们|我)(?:之前|上次|当时|最后|最终)?(?:是)?(?:怎么|如何)(?:决定|定|商量|约定|选|处理|解决)的`,
	`(?:我们|我|咱们)(?:之前|上次|当时|最后)?(?:决定|定|商量|约定|选|讨论)(?:下来|好)?的[^,]{0,8}是(?:什么|啥|哪个)`,
	`(?:之前|上次|当时|最后)的?(?:决定|结论|方案|约定|计划)是(?:什么|啥)`,
	`为(?:什么|啥|何)(?:我们|我|咱们)(?:当时|之前|最后)?(?:要)?(?:选|选择|用|使用|决定|采用|换|改用|放弃|不用)`,
	`(?:我们|我|咱们)(?:当时|之前|最后)?为(?:什么|啥|何)(?:要)?(?:选|选择|用|使用|决定|采用|换|改用|放弃|不用)`,
	`提醒(?:我|一下我|我一下)(?:一下)?.*(?:什么|啥|哪|谁|怎么|多少)`,
	`(?:我|我们)(?:之前|上次|刚才|以前)?(?:跟你|和你|对你)?(?:说|提|讲|聊|告诉你)(?:过|了)(?:些)?(?:什么|啥|哪些)`,
	`我(?:平时|一般|通常|最)?(?:喜欢|偏好|习惯|爱)(?:用|使用)?(?:什么|哪个|哪种|啥)`,
	`你(?:都)?(?:知道|了解|记得)(?:关于)?我(?:的)?(?:什么|多少|哪些)`,
	`(?:我|我们)?(?:接下来|下一步)(?:该|要|应该)?(?:做|干)?(?:什么|啥)`,
	// 来着 asks for something once known: "是啥来着"
	`(?:什么|啥|哪|谁|多少|几)[^,]*来着|来着[^,]*(?:什么|啥|哪|谁|多少)`,
	`回忆(?:一下)?(?:我|我们|咱们)`,
	`你(?:还)?(?:知道|记得)我(?:是)?(?:做)?(?:什么|谁|哪)`,
	`(?:现在|当前|目前)(?:手上|手头)?的?(?:任务|工单|分支|ticket)是(?:什么|哪个|啥)`,
	// Japanese
	`(?:私|僕|俺|わたし|ぼく)の名前(?:は)?(?:何|なん)`,
	`(?:私|僕|俺|わたし)(?:は|って)誰`,
	`どこまで(?:やった|やって|進んだ|進め|話した|話し|終わった|した)`,
	`何を(?:して|やって)(?:い)?た(?:っけ|か)`,
	`何(?:を|に)(?:決めた|決めました|話して|話し)`,
	`(?:どの|どっちの)(?:ブランチ|チケット|タスク|課題)`,
	`(?:なぜ|なんで)[^,]*(?:選んだ|にした|決めた)`,
)

// yesNoZH are Chinese and Japanese recall openings that ask yes or no:
// they count only with a question mark or particle, and only when what
// follows them asks rather than tells ("你还记得我叫张三吗" tells).
var yesNoZH = compileAll(
	`你(?:还)?(?:记得|记不记得)`,
	`(?:我|我们)(?:之前|上次|刚才|以前)?(?:有没有)?(?:跟你|和你|对你)?(?:说|提|讲|告诉你|提到)过`,
	`(?:我|我们)(?:已经|之前)?(?:提交|推送|合并|push|commit)(?:过|了)`,
	`覚えて(?:る|い(?:る|ます))`,
)

// zhAsk marks a Chinese or Japanese question: a question word or particle.
var zhAsk = lazyRE(`什么|啥|哪|谁|几|多少|怎么|吗|么|嘛|呢|没有|不记得|か$|っけ|何|どこ|誰`)

// recallCJK reports whether a clause of Chinese or Japanese text is a
// recall question.
func recallCJK(c string, question bool) bool {
	for _, re := range recallZH {
		if re.MatchString(c) {
			return true
		}
	}
	for _, re := range yesNoZH {
		loc := re.FindStringIndex(c)
		if loc == nil {
			continue
		}
		if !question && !zhAsk.MatchString(c) {
			continue
		}
		rest := strings.TrimRight(c[loc[1]:], "吗么嘛呢没有?か")
		if zhTells.MatchString(rest) && !zhAsk.MatchString(rest) {
			continue
		}
		return true
	}
	return false
}

// zhTells finds a stated value after a yes/no opening: a name, a choice.
var zhTells = lazyRE(`叫|是|用|喜欢|决定|在`)

// statesCJK reports whether a Chinese or Japanese clause states a value or
// asks for work.
func statesCJK(c string) bool {
	if cjkWork.MatchString(c) {
		return true
	}
	return cjkStates.MatchString(c) && !zhAsk.MatchString(c)
}

var (
	cjkWork   = lazyRE(`^(?:请|帮我|帮忙|麻烦|把|给我|记住|记得|添加|加上|修改|改成|删除|创建|运行|提交|推送|合并|实现|重构|更新|写)|してください|して下さい|追加して|修正して`)
	cjkStates = lazyRE(`(?:我|我们|咱们)(?:叫|是|用|使用|决定|喜欢|在用|选了)|(?:私|僕)は`)
)

// Fillers: words a question may start with or be padded by.
var leadWords = []string{
	"hey there", "hi there", "good morning", "good afternoon", "good evening", "quick question", "by the way",
	"one more thing", "any idea", "hey", "hi", "hello", "ok", "okay", "so", "um", "uh", "btw", "also", "and", "morning",
	"sorry", "wait", "oh", "hmm", "please", "pls", "cairn", "claude", "codex", "ah", "alright", "well", "now",
	"merhaba", "selam", "gunaydin", "peki", "bu arada", "bir sorum var", "pardon", "acaba", "simdi",
	"你好", "早上好", "嗨", "请问", "对了", "那个", "嗯", "哎", "好的", "麻烦问一下",
	"おはよう", "こんにちは", "ねえ", "ところで",
}

var fillerWords = map[string]bool{
	"hey": true, "hi": true, "hello": true, "there": true, "ok": true, "okay": true, "so": true, "um": true,
	"uh": true, "morning": true, "good": true, "thanks": true, "thank": true, "you": true, "please": true,
	"pls": true, "btw": true, "quick": true, "question": true, "sorry": true, "again": true, "yesterday": true,
	"today": true, "now": true, "exactly": true, "then": true, "cool": true, "great": true, "alright": true,
	"lol": true, "hmm": true, "ah": true, "oh": true, "well": true, "afternoon": true, "evening": true,
	"merhaba": true, "selam": true, "gunaydin": true, "tesekkurler": true, "tesekkur": true, "ederim": true,
	"sagol": true, "lutfen": true, "peki": true, "tamam": true, "iyi": true, "gunler": true, "dun": true, "bugun": true,
}

var fillerPhrases = map[string]bool{
	"你好": true, "早上好": true, "早": true, "嗨": true, "谢谢": true, "请问": true, "对了": true, "嗯": true,
	"好的": true, "来着": true, "麻烦了": true, "谢谢你": true, "昨天": true, "上次": true,
	"おはよう": true, "こんにちは": true, "ありがとう": true, "ねえ": true,
}

func compileAll(patterns ...string) []*lazyRegexp {
	out := make([]*lazyRegexp, len(patterns))
	for i, p := range patterns {
		out[i] = lazyRE(p)
	}
	return out
}
