package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Chinese rules. They read markSentence.low too, where ASCII is
// lowercased and inline code and quotes are placeholders; Chinese
// punctuation is kept as typed.

var (
	zhNoMatter   = lazyRE(`(?:不管|无论|不论)(?:是|用|在)?(?:什么|怎么|哪|谁|多少|多)`)
	zhQuestion   = lazyRE(`什么|怎么|为什么|为啥|哪(?:个|些|里|儿|种|一)|谁|多少|是不是|要不要|能不能|可不可以|有没有|对不对|行不行|好不好|是否|难道|咋|[吗么呢][。.!！]?$`)
	zhHypo       = lazyRE(`如果|假如|假设|要是|万一|假使|倘若|如若|的话|哪怕|即使|就算`)
	zhVeto       = lazyRE(`也许|或许|可能|大概|要不|不如|我觉得|我认为|我在想|我想|考虑|打算|准备|计划|好像|似乎|不确定|不知道|建议|听说|据说|应该是|是不是|(?:他|她|它|他们|她们|同事|老板|领导|组长|经理|老大|有人|别人|大家都|文档|官方|面试官|客户|产品|网上|教程)(?:里|上|中)?(?:说|讲|提到|建议|认为|觉得|表示|要求|希望|让|叫|规定)`)
	zhOneOff     = lazyRE(`先(?:不要|别|不|用着|放着|这样|忽略|跳过)|暂时|这次|这一次|本次|马上|立刻|赶紧|刚才|刚刚|今天|今晚|等一下|待会|一会儿|这个(?:文件|函数|方法|类|变量|测试|分支|提交|bug|问题|接口|模块|组件|页面|需求|改动|地方|pr|报错|错误)|那个|这里|这些|那些|这块|这段|现在(?:不要|别|先|就|马上)|还没|了吗`)
	zhOneOffThis = lazyRE(`这次|这一次|本次|这个(?:文件|函数|方法|类|变量|测试|分支|提交|bug|问题|接口|模块|组件|页面|需求|改动|地方|pr|报错|错误)|那个|这里|这些|那些`)
	zhNegEnd     = lazyRE(`(?:不|没|没有|并不|并没有|从没|从来没|未|还没|难以|没法)$`)
	zhFail       = lazyRE(`失败|报错|挂|超时|卡|出错|崩|不行|有问题|不稳定|慢|忘|漏|搞错|弄错|出问题|跑不过|过不了|很烦|很久|好久|半天|太久|很长时间|延期|拖|晚|迟|延迟|乱`)
	zhPast       = lazyRE(`(?:^|我们|我|咱们|团队|大家)(?:以前|过去|当时|那时候|曾经|原来)`)
	zhFromNow    = lazyRE(`从今天(?:起|开始)|从现在(?:起|开始)`)

	zhTicketIntro = lazyRE(`我(?:这周|这个星期|本周|今天|明天|最近|目前|现在|这几天|这两天|这个迭代|这个月|本月)?(?:(?:正在|还在|一直在|在)(?:做|搞|处理|负责|跟进|跟)|开始(?:做|搞|处理|跟)|接手了?|接了)\s*|我(?:这周|本周|目前|现在|最近)?(?:负责|手上是|手上的(?:单子|任务|票|ticket)是)\s*`)
	zhTicket      = lazyRE(`^(?:[A-Z][A-Z0-9]{1,9}-[0-9]{1,6}|#[0-9]{1,7})`)
	zhBadWork     = lazyRE(`^(?:的|着|完|什么|啥|这个|那个|饭|呢|了|好|一下|事|作业|梦|不|没|吗|它|这|那)`)

	zhDecided = lazyRE(`(?:我们|咱们|团队|大家|我)(?:已经|最后|最终|刚刚|今天|一致|商量后|讨论后|开会|都|还是)*(?:决定|定了|敲定|拍板|选定|选了|选择了|采用了?|达成一致)|(?:最后|最终|已经|一致)决定|决定(?:用|采用|改用|统一|不再|不用|把|以后|了|继续|保留|放弃)|就这么定了|就定(?:用)?|那就用|统一决定`)
	zhDecIdle = lazyRE(`^(?:先)?(?:休息|睡|下班|吃饭|走了|放弃|算了|试试|看看|不管)`)
	zhDecNeg  = lazyRE(`(?:没|未|不|还没|没有|再|要|需要|得|来|你|由你|还在|难以|没法)$`)

	zhTopicVerb = lazyRE(`把(.{1,24}?)(?:换成|改成|迁移到|迁到|切到|切换到|改为|换为)了?\s*`)
	zhChangeVb  = lazyRE(`换成了|换成|改用了|改用|换用了|换用|切到了|切到|切换到了|切换到|迁移到了|迁移到|迁到了|迁到|转到了|转到|换到了|换到|改成用|改成了|改成|变成了|改为|换为|部署在|部署到|托管在|跑在|放在|用的是|是`)
	zhSubjects  = lazyRE(`^(?:我们的|咱们的|项目的|线上的|我们把|我们|咱们|团队|我|现在|目前|已经|都|也|刚刚|最近|上周|这周|本周|正式|全面|整体|已|了)+`)
	zhTopicTail = lazyRE(`(?:现在|目前|已经|都|也|刚刚|最近|正式|全面|已|了)+$`)

	zhPrefer   = lazyRE(`我(?:宁愿|宁可)|我(?:个人|还是|一般|平时|其实)?(?:更|比较|特别|还是更|更加|最)?(?:喜欢|偏好|偏向|倾向于|倾向|习惯)|我不(?:太)?喜欢|我(?:最|很|特别|真的|非常)?(?:讨厌|受不了|反感)|我希望你?(?:以后|每次|总是|都|回答|回复)`)
	zhDemo     = lazyRE(`^(?:用|把|在)?(?:这个|那个|它|你|这样|那样|这种|那种|这些|那些|这|那)`)
	zhStyle    = lazyRE(`(?:回答|回复|答案|解释|说明|输出|总结)(?:请|尽量|要|都|保持|一定要|最好|得)*(?:简短|简洁|短一点|短一些|精简|简明|别太长|不要太长|直接一点)|用中文(?:回答|回复|交流|沟通)|用英文(?:回答|回复|交流|沟通)|(?:回答|回复)(?:请|都|一律|统一|尽量)?用(?:中文|英文)|(?:回答|回复)(?:请|尽量|都|最好)?(?:控制在|不要超过|别超过|限制在|不超过)`)
	zhRuleMark = lazyRE(`记得|总是|始终|一律|永远|每次都|每次|一定要|一定得|请一定|必须|务必|千万|禁止|严禁|不许|不准|不得|请勿|切记|切勿|绝对不要|绝对别|绝不|从不|不要|别|以后|今后|往后|从现在开始|从现在起|从今以后|从今天开始|从今天起|统一(?:用|使用|成|采用|输出成?|写成?|改成|放在|放到|走|按照?)|一概|尽量|都要|都得`)
	zhIdle     = lazyRE(`^(?:急|担心|管|着急|怕|客气|慌|紧|紧张|介意|生气|忘了|忘记|动它|弄了|搞了|说了|问了|打扰|闹|这样|那样|再说)`)
	zhLater    = lazyRE(`^(?:再|的|可能|会|有空|有时间|慢慢|说|就知道|才|也许|或许)`)
	zhAll      = lazyRE(`所有|每个|全部|任何|我们|大家|团队|咱们|每次|一切`)

	zhWeUse      = lazyRE(`(?:我们|咱们|团队|项目里|项目中|仓库里|这个项目里?|这个仓库里?|我们项目里?|我们组|我们团队|大家)(?:里|中)?(?:一般|通常|都|只|统一|一直|平时|习惯|默认|一律|全部|主要|现在)*(?:用|使用|采用|走|遵循|按照|按)\s*`)
	zhUseBad     = lazyRE(`^(?:了|过|这个|那个|它|什么|一下|来看|起来|着|到|不了|完|哪)`)
	zhOurX       = lazyRE(`我们的(.{1,30}?)(?:都|要|必须|一般|统一|一律)?(?:以|用|是|放在|遵循|按照|按|写在|统一)`)
	zhConvNn     = lazyRE(`提交|分支|pr|标题|版本|标签|tag|目录|文件|命名|接口|api|日志|注释|代码|测试|变量|函数|组件|配置|环境变量|迁移|表名|字段|错误码|commit|依赖|镜像|服务|文档|脚本|消息|路由|端口`)
	zhAgreed     = lazyRE(`约定`)
	zhNorm       = lazyRE(`规范(?:是|要求|规定)|按(?:照)?规范|代码风格(?:是|统一)|约定是`)
	zhAffix      = lazyRE(`以.{1,30}?(?:开头|结尾|为前缀|为后缀)`)
	zhQuant      = lazyRE(`^(?:每个|所有|全部|任何|每一个|每条|每次)[^，,。；]{1,16}?(?:都|至少|必须|需要|要|得|一律|不能|不许|不得|只能)`)
	zhGuess      = lazyRE(`它|他|她|这个|那个|都会|会不会|总会`)
	zhWeHabit    = lazyRE(`(?:我们|咱们|团队)(?:只|一般|通常|平时|习惯|一律)(?:在|会|都)?`)
	zhHabitBad   = lazyRE(`^(?:是|要|好|有|能|不过|觉得|知道|想|说)`)
	zhWeNot      = lazyRE(`(?:我们|咱们|团队)(?:一般|通常|从来|都|从|一律)?(?:不用|不使用|不采用|不提交|不写|不引入|不允许)\s*`)
	zhSubjLead   = lazyRE(`^(?:请|那|所以|然后|另外|还有|好的|好|嗯|对了|ok|注意|记住|记得|麻烦|并且|而且|同时|以后|今后|从现在开始|从今以后)+`)
	zhSubjModal  = lazyRE(`(?:要|应该|必须|得|需要|一定)$`)
	zhSubjTail   = lazyRE(`(?:都|也|就|还|要|一定|千万|永远|绝对|尽量|务必|必须|请|得|应该|需要|一律)+$`)
	zhSubjWhen   = lazyRE(`^(?:每次)?.{0,20}?(?:之前|之后|以前|以后|的时候|时候|前|后|时)$`)
	zhSubjTeam   = lazyRE(`^(?:我们|咱们|团队|大家|我们团队|我们组|项目里|我们项目|这个项目里?|仓库里|项目中)`)
	zhSubjThing  = lazyRE(`^(?:他|她|它|他们|她们|这|那|这个|那个|谁)`)
	zhAgreedNeg  = lazyRE(`(?:没|没有|要不要|有没有|还没|先)$`)
	zhAgreedIdle = lazyRE(`^(?:一下|个|时间|好时间)`)
	zhRestTeam   = lazyRE(`^(?:我们|大家|团队|咱们|所有|每个|全部|任何)`)
	zhRestModal  = lazyRE(`都要|都用|都得|都以|都在|必须|需要|一律|统一|应该|至少|不能|不要|不许|不准|别|要|都`)
	zhLetsUse    = lazyRE(`(?:^|，|,)(?:那|那就|就|还是|那还是)用[^，。,]{1,30}吧`)
	zhFuncHan    = "的了是在我你他她它们这那个就都也还要不没别很和与或及把被给让用以后前再又才而但如果吧呢啊吗哦嗯么之其一些有上下里中对为从到说做会能可应该请先每次总始终永远必须务必定千万禁止严禁许准得勿切记绝统决喜欢更比较偏好习惯今往现开起来着过吧呀啦嘛好样种些点儿"
)

func (s *markSentence) zhDraft() (memory.Draft, bool) {
	t := s.low
	if zhQuestion.MatchString(zhNoMatter.ReplaceAllString(t, "")) || strings.HasSuffix(strings.TrimRight(t, " 。.)）”」"), "？") || strings.HasSuffix(strings.TrimRight(t, " 。.)）”」"), "?") {
		return memory.Draft{}, false
	}
	from := 0
	if m := zhHypo.FindStringIndex(t); m != nil {
		// Markers may sit only in the main clause after the condition.
		i := strings.IndexAny(t[m[1]:], "，,")
		if i < 0 {
			return memory.Draft{}, false
		}
		_, w := utf8.DecodeRuneInString(t[m[1]+i:])
		from = m[1] + i + w
	}
	for _, rule := range []func(int) (memory.Draft, bool){
		s.zhTicket, s.zhDecision, s.zhChange, s.zhPreference, s.zhRule, s.zhConvention,
	} {
		if d, ok := rule(from); ok {
			return d, true
		}
	}
	return memory.Draft{}, false
}

// zhClauseStart returns where the clause holding p begins.
func zhClauseStart(t string, from, p int) int {
	best := from
	for _, sep := range []string{"，", ",", "；", ";", "：", ":", "、"} {
		if i := strings.LastIndex(t[from:p], sep); i >= 0 && from+i+len(sep) > best {
			best = from + i + len(sep)
		}
	}
	return best
}

// zhClauseEnd returns where the clause holding p ends.
func zhClauseEnd(t string, p int) int {
	end := len(t)
	for _, sep := range []string{"，", ",", "；", ";", "。", "！", "？", "!", "?", "因为", "但是", "不过"} {
		if i := strings.Index(t[p:], sep); i >= 0 && p+i < end {
			end = p + i
		}
	}
	return end
}

// zhClear reports whether the marker at [p, end) stands: nothing
// tentative or reported before it or in its clause, no negation just
// before it.
func (s *markSentence) zhClear(from, p, end int) bool {
	t := s.low
	if zhVeto.MatchString(t[from:zhClauseEnd(t, end)]) {
		return false
	}
	cs := zhClauseStart(t, from, p)
	return !zhNegEnd.MatchString(strings.TrimSpace(t[cs:p])) && !zhPast.MatchString(t[cs:p])
}

// zhContent scores the content of Chinese text: content characters count
// one, ASCII content words and inline code two.
func zhContent(t string) int {
	n := 0
	for _, r := range t {
		if unicode.Is(unicode.Han, r) && !strings.ContainsRune(zhFuncHan, r) {
			n++
		}
	}
	return n + 2*markEnContent(t)
}

// zhValue reads a value from low[i]: up to the end of its clause, without
// trailing particles.
func (s *markSentence) zhValue(i int) (string, bool) {
	t := s.low
	end := zhClauseEnd(t, i)
	for _, cut := range []string{"所以", "而且", "然后", "的话", "了，", "因为", " 做", " 来", " 作为", " 用于", " 用来", " 当"} {
		if k := strings.Index(t[i:end], cut); k > 0 {
			end = i + k
		}
	}
	v := s.span(i, end)
	for {
		w := strings.TrimSpace(strings.TrimRight(v, " .!"))
		for _, tail := range []string{"了", "吧", "啦", "啊", "呢", "上", "来着", "哦", "呀", "中", "这个单子", "这个任务", "这张票", "这块", "这部分", "的事情", "的事", "这件事", "去", "里"} {
			w = strings.TrimSpace(strings.TrimSuffix(w, tail))
		}
		if w == v {
			break
		}
		v = w
	}
	v = strings.Trim(v, "`\"“”「」 ")
	if v == "" || utf8.RuneCountInString(v) > 40 {
		return "", false
	}
	return v, true
}

// zhFind returns the first match of re in t[from:] (absolute indexes)
// that ok accepts.
func zhFind(re *lazyRegexp, t string, from int, ok func(m []int) bool) []int {
	return enFind(re, t, from, ok)
}

func (s *markSentence) zhTicket(from int) (memory.Draft, bool) {
	var val string
	m := zhFind(zhTicketIntro, s.low, from, func(m []int) bool {
		if !s.zhClear(from, m[0], m[1]) {
			return false
		}
		rest := strings.TrimSpace(s.src[s.off[m[1]]:])
		rest = strings.Trim(rest, "`")
		if k := zhTicket.FindString(rest); k != "" {
			val = k
			return true
		}
		v, ok := s.zhValue(m[1])
		if !ok || zhBadWork.MatchString(v) || zhContent(strings.ToLower(v)) < 2 {
			return false
		}
		val = v
		return true
	})
	if m == nil {
		return memory.Draft{}, false
	}
	if zhTicket.MatchString(val) && zhTicket.FindString(val) == val {
		return s.fact("user", "current_ticket", val, memory.ClassTask)
	}
	return s.fact("user", "working_on", val, memory.ClassTask)
}

func (s *markSentence) zhDecision(from int) (memory.Draft, bool) {
	t := s.low
	if zhFind(zhDecided, t, from, func(m []int) bool {
		cs := zhClauseStart(t, from, m[0])
		if zhDecNeg.MatchString(strings.TrimSpace(t[cs:m[0]])) || strings.HasPrefix(t[m[1]:], "一下") || strings.HasPrefix(t[m[1]:], "不了") || zhDecIdle.MatchString(strings.TrimSpace(t[m[1]:])) {
			return false
		}
		return s.zhClear(from, m[0], m[1]) && !zhOneOffThis.MatchString(t[from:]) && zhContent(t[m[1]:]) >= 2
	}) != nil {
		return s.note(memory.ClassDecision, markConfExplicit)
	}
	if zhFind(zhLetsUse, t, from, func(m []int) bool {
		return s.zhClear(from, m[0], m[1]) && !zhOneOff.MatchString(t[from:]) && zhContent(t[m[0]:m[1]]) >= 2
	}) != nil {
		return s.note(memory.ClassDecision, markConfExplicit)
	}
	return memory.Draft{}, false
}

// zhChange reads "我们换成了 X", "现在改用 X", "部署目标改成了 X",
// "CI 现在跑在 X 上".
func (s *markSentence) zhChange(from int) (memory.Draft, bool) {
	t := s.low
	if m := zhFind(zhTopicVerb, t, from, func(m []int) bool { return s.zhClear(from, m[0], m[1]) }); m != nil {
		topic := strings.TrimSpace(t[m[2]:m[3]])
		if _, old := markValueSlot(topic); old {
			// "把 Jest 换成了 Vitest": the old value names the slot.
			if v, ok := s.zhValue(m[1]); ok {
				if slot, ok := markValueSlot(v); ok {
					return s.fact(slot.subject, slot.predicate, v, slot.class)
				}
			}
			return memory.Draft{}, false
		}
		if slot, ok := markTopicSlot(topic); ok {
			if v, ok := s.zhValue(m[1]); ok {
				return s.fact(slot.subject, slot.predicate, v, slot.class)
			}
		}
		return memory.Draft{}, false
	}
	for _, m := range zhChangeVb.FindAllStringIndex(t[from:], -1) {
		p, q := from+m[0], from+m[1]
		verb := t[p:q]
		cs := zhClauseStart(t, from, p)
		topic := strings.TrimSpace(t[cs:p])
		topic = strings.TrimSpace(zhTopicTail.ReplaceAllString(zhSubjects.ReplaceAllString(topic, ""), ""))
		if !s.zhClear(from, p, q) {
			continue
		}
		v, ok := s.zhValue(q)
		if !ok || markStateValue(v) {
			continue
		}
		if topic != "" {
			if slot, ok := markTopicSlot(topic); ok && verb != "是" || ok && strings.Contains(t[cs:p], "现在") || ok && strings.Contains(t[cs:p], "的") {
				return s.fact(slot.subject, slot.predicate, v, slot.class)
			}
			continue
		}
		switch verb {
		case "部署在", "部署到", "托管在":
			return s.fact(slotDeploy.subject, slotDeploy.predicate, v, slotDeploy.class)
		case "是", "改成", "改成了", "变成了", "改为", "放在", "用的是", "跑在":
			continue
		}
		if slot, ok := markValueSlot(v); ok {
			return s.fact(slot.subject, slot.predicate, v, slot.class)
		}
		if zhContent(strings.ToLower(v)) >= 2 && !zhOneOff.MatchString(t[from:]) {
			return s.note(memory.ClassDecision, markConfExplicit)
		}
	}
	return memory.Draft{}, false
}

func (s *markSentence) zhPreference(from int) (memory.Draft, bool) {
	t := s.low
	if zhFind(zhPrefer, t, from, func(m []int) bool {
		rest := strings.TrimSpace(t[m[1]:])
		return s.zhClear(from, m[0], m[1]) && !zhDemo.MatchString(rest) && !zhOneOff.MatchString(t[from:]) && zhContent(rest) >= 2
	}) != nil {
		return s.note(memory.ClassPreference, markConfExplicit)
	}
	if zhFind(zhStyle, t, from, func(m []int) bool {
		return s.zhClear(from, m[0], m[1]) && !zhOneOff.MatchString(t[from:])
	}) != nil {
		return s.note(memory.ClassPreference, markConfExplicit)
	}
	return memory.Draft{}, false
}

// zhRule reads constraints: 总是, 不要, 别, 必须, 以后, 统一用 …
func (s *markSentence) zhRule(from int) (memory.Draft, bool) {
	t := s.low
	var class memory.Class
	m := zhFind(zhRuleMark, t, from, func(m []int) bool {
		p, q := m[0], m[1]
		mark := t[p:q]
		cs := zhClauseStart(t, from, p)
		prefix := strings.TrimSpace(t[cs:p])
		next := strings.TrimSpace(t[q:])
		ce := zhClauseEnd(t, q)
		if !s.zhClear(from, p, q) || zhOneOff.MatchString(zhFromNow.ReplaceAllString(t[cs:ce], "")) || zhContent(t[q:]) < 2 {
			return false
		}
		prev, _ := utf8.DecodeLastRuneInString(prefix)
		subj, modal := zhSubject(prefix)
		switch mark {
		case "别":
			if prefix != "" && !strings.ContainsRune("请你也都就再可千万远对后一", prev) {
				return false
			}
			nr, _ := utf8.DecodeRuneInString(next)
			if strings.ContainsRune("人的名处墅扭针致称说", nr) || zhIdle.MatchString(next) {
				return false
			}
		case "不要":
			if strings.ContainsRune("我他她它谁要", prev) || zhIdle.MatchString(next) {
				return false
			}
		case "总是", "始终", "永远", "每次", "每次都", "从不", "一律":
			if subj == enSubjNone || subj == enSubjYou && !modal {
				return false
			}
			if zhFail.MatchString(t[q:ce]) {
				return false
			}
		case "以后", "今后", "往后":
			if subj != enSubjImperative && subj != enSubjTeam && subj != enSubjYou || zhLater.MatchString(next) {
				return false
			}
			if r := zhRestSubject(next); r == enSubjTeam || r == enSubjNoun {
				subj = enSubjTeam
			}
		case "记得":
			if !zhSubjWhen.MatchString(prefix) {
				return false
			}
			subj = enSubjImperative
		case "都要", "都得":
			if !zhAll.MatchString(t[cs:p]) {
				return false
			}
			subj = enSubjTeam
		case "从现在开始", "从现在起", "从今以后", "从今天开始", "从今天起":
			subj = zhRestSubject(next)
		default:
			if strings.HasPrefix(mark, "统一") {
				subj = enSubjTeam
			} else if subj == enSubjNone {
				return false
			}
		}
		class = memory.ClassPreference
		if subj == enSubjTeam || subj == enSubjNoun {
			class = memory.ClassConvention
		}
		return true
	})
	if m == nil {
		return memory.Draft{}, false
	}
	return s.note(class, markConfRule)
}

// zhRestSubject reads the subject of the clause after 以后 or 从现在开始:
// a team or a thing a team rule is about makes a convention.
func zhRestSubject(rest string) enSubj {
	rest = strings.TrimLeft(rest, "，,: ：")
	if zhRestTeam.MatchString(rest) {
		return enSubjTeam
	}
	m := zhRestModal.FindStringIndex(rest)
	if m == nil {
		return enSubjImperative
	}
	head := rest[:m[0]]
	if utf8.RuneCountInString(head) < 2 || zhSubjWhen.MatchString(head) || zhSubjLead.MatchString(head) ||
		strings.HasPrefix(head, "你") || strings.HasPrefix(head, "我") {
		return enSubjImperative
	}
	return enSubjNoun
}

// zhSubject reads the subject of a rule from the clause text before its
// marker, and whether a modal (要, 应该, 必须, 得) came with it.
func zhSubject(prefix string) (enSubj, bool) {
	p := zhSubjLead.ReplaceAllString(prefix, "")
	modal := zhSubjModal.MatchString(p)
	p = zhSubjTail.ReplaceAllString(p, "")
	p = zhSubjWhen.ReplaceAllString(p, "")
	switch {
	case p == "" || p == "请":
		return enSubjImperative, modal
	case p == "你" || p == "请你" || p == "您":
		return enSubjYou, modal
	case p == "我":
		return enSubjUser, modal
	case zhSubjTeam.MatchString(p) || zhAll.MatchString(p):
		return enSubjTeam, modal
	case zhSubjThing.MatchString(p):
		return enSubjNone, modal
	}
	return enSubjNoun, modal
}

func (s *markSentence) zhConvention(from int) (memory.Draft, bool) {
	t := s.low
	ok := func(m []int) bool {
		return s.zhClear(from, m[0], m[1]) && !zhOneOff.MatchString(t[from:]) && zhContent(t[m[1]:]) >= 2
	}
	if zhFind(zhWeUse, t, from, func(m []int) bool {
		return ok(m) && !zhUseBad.MatchString(strings.TrimSpace(t[m[1]:]))
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if zhFind(zhWeHabit, t, from, func(m []int) bool {
		return ok(m) && !zhHabitBad.MatchString(strings.TrimSpace(t[m[1]:])) && !zhGuess.MatchString(t[m[1]:])
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if zhFind(zhOurX, t, from, func(m []int) bool {
		return ok(m) && zhConvNn.MatchString(t[m[2]:m[3]])
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if zhFind(zhAgreed, t, from, func(m []int) bool {
		cs := zhClauseStart(t, from, m[0])
		if zhAgreedNeg.MatchString(strings.TrimSpace(t[cs:m[0]])) {
			return false
		}
		if zhAgreedIdle.MatchString(t[m[1]:]) {
			return false
		}
		return s.zhClear(from, m[0], m[1]) && !zhOneOff.MatchString(t[from:]) && zhContent(t) >= 4
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if zhFind(zhNorm, t, from, ok) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if zhFind(zhAffix, t, from, func(m []int) bool {
		return s.zhClear(from, m[0], m[1]) && !zhOneOff.MatchString(t[from:]) && zhConvNn.MatchString(t)
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if zhFind(zhWeNot, t, from, func(m []int) bool {
		return ok(m) && !zhUseBad.MatchString(strings.TrimSpace(t[m[1]:])) && !zhDemo.MatchString(strings.TrimSpace(t[m[1]:]))
	}) != nil {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	if lead := zhSubjLead.FindString(t[from:]); zhQuant.MatchString(t[from+len(lead):]) && !zhFail.MatchString(t[from:]) && !zhGuess.MatchString(t[from:]) && s.zhClear(from, from, from) && !zhOneOff.MatchString(t[from:]) && zhContent(t[from:]) >= 3 {
		return s.note(memory.ClassConvention, markConfConvention)
	}
	return memory.Draft{}, false
}
