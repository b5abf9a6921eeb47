package text

import "strings"

// IsStopWord reports whether tok, a token as Tokens returns it, is an
// English, Chinese or Japanese stop word. Queries drop stop words; the
// index keeps them. Short technical words (go, ci, ui, db, pr, qa, js, ts,
// ai, k8s, s3, up, down) are not stop words.
func IsStopWord(tok string) bool {
	if _, ok := englishStop[tok]; ok {
		return true
	}
	_, ok := cjkStop[tok]
	return ok
}

func isStopBytes(w []byte) bool {
	_, ok := englishStop[string(w)] // no allocation: the compiler sees the lookup
	return ok
}

// englishStop lists function words and the contractions the tokenizer
// makes of them ("don't" → "dont"). Never add a word that also names a
// technology: "go", "it" as in IT is rare enough to stay a stop word.
// Read-only.
var englishStop = wordSet(`
a about above after again against all almost also although am among an and
another any anybody anyone anything anyway are aren arent around as at
be became because become been before being below besides between both but by
can cannot cant could couldnt
d did didnt do does doesnt doing done dont during
each eg either else enough etc even ever every everyone everything
few for from further
had hadnt has hasnt have havent having he hed hell her here hers herself hes him
himself his how however
i ie if im in indeed into is isnt it itd itll its itself ive
just
least less let lets ll
m many may me might mine more most much must mustnt my myself
neither nevertheless no nobody none nor not nothing now
of off often on once only onto or other others otherwise ought our ours
ourselves over own
per perhaps please
quite
rather re really
s said same say says shall she shed shell shes should shouldnt since so some
somebody someone something sometimes somewhat such
t than that thatll thats the their theirs them themselves then there therefore
theres these they theyd theyll theyre theyve this those though through thus to
together too toward towards
under unless until upon us
ve very via
was wasnt we wed well were werent weve what whatever whats when whenever where
whereas whether which while who whoever whole whom whose why will with within
without wont would wouldnt
yet you youd youll your youre yours yourself yourselves youve
`)

// cjkStop lists Chinese function words and pronouns, and the commonest
// Japanese particles and auxiliaries written in kana. Negations are here
// too: a query is about a topic, and the stored text keeps its polarity.
// Read-only.
var cjkStop = wordSet(`
的 地 得 了 着 过 是 在 和 与 及 或 也 都 就 把 被 吗 呢 吧 啊 呀 嘛 么 之 其 而
这 那 个 很 又 还 给 让 对 于 从 向 以 为 并 但 即 则 等 我 你 他 她 它 您 咱
哦 嗯 请 不 没 别
我们 你们 他们 她们 它们 咱们 自己 这个 那个 这些 那些 这样 那样 这种 那种
这里 那里 这儿 那儿 什么 怎么 怎样 怎么样 为什么 如何 哪个 哪些 哪里 因为
所以 但是 可是 然而 而且 并且 或者 还是 如果 虽然 即使 就是 只是 已经 一个
一些 一下 一直 可以 能够 应该 需要 没有 不要 不是 的话 关于 对于 以及 还有
然后 请问 帮我 一样
の に を は が で と も へ や か な ね よ から まで より です ます でした
ました します した して する され こと これ それ あれ この その あの
しました ください ない ません
`)

// maxCJKStop is the length, in characters, of the longest word in cjkStop.
const maxCJKStop = 4

func wordSet(list string) map[string]struct{} {
	words := strings.Fields(list)
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}
