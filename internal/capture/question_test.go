package capture_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cairn-memory/cairn/internal/capture"
)

// questionCase is one labelled message.
type questionCase struct {
	lang, text string
	recall     bool
}

func pos(lang string, texts ...string) []questionCase { return label(lang, true, texts) }
func neg(lang string, texts ...string) []questionCase { return label(lang, false, texts) }

func label(lang string, recall bool, texts []string) []questionCase {
	out := make([]questionCase, len(texts))
	for i, t := range texts {
		out[i] = questionCase{lang: lang, text: t, recall: recall}
	}
	return out
}

var questionTable = concat(
	pos("en",
		"what is my name",
		"What's my name?",
		"who am I?",
		"Where did I leave off?",
		"where did we leave off yesterday",
		"Morning. Where did I leave off yesterday, and which ticket am I on?",
		"What was I working on?",
		"what were we working on last time?",
		"Which ticket am I on?",
		"which branch am I working on right now?",
		"What did we decide about the router cache?",
		"what did we agree on for the commit format?",
		"Remind me what we decided about caching.",
		"remind me which ticket I'm on",
		"Do you remember my name?",
		"do you remember what we said about retries?",
		"Do you still remember which database we picked?",
		"Why did we pick a Map over lru-cache for the router cache?",
		"what's our commit format?",
		"What is my email?",
		"did we already push the fix?",
		"Have I told you my timezone?",
		"what did I tell you about my answer style?",
		"hey, where were we?",
		"What's the plan?",
		"What's next?",
		"what should I work on next",
		"Can you tell me what my role is?",
		"I forgot what we decided about the logger, remind me?",
		"what do you know about me?",
		"remember what we chose for the queue?",
		"<cairn-memory>user name Ana</cairn-memory> what is my name?",
	),
	neg("en",
		"I wonder what the name of the DB is, it's prod-db-1",
		"My name is Ana.",
		"We decided to use a plain Map with a size cap, not lru-cache.",
		"Remember that the deploy target is Render.",
		"remind me to run the tests before I commit",
		"What does this function return?",
		"What is the capital of France?",
		"Where is the config file loaded?",
		"how do I run the tests?",
		"What's the difference between a slice and an array?",
		"Which of these libraries is smaller?",
		"why is my test failing?",
		"What's my best option here?",
		"what is my code doing wrong",
		"Add an .nvmrc file that pins Node 20 and commit it.",
		"Our commits start with the Jira key of the ticket I'm on, like PAY-1432: short summary.",
		"I'm on PAY-1432 this week. Amend that commit.",
		"what is my name? It's Bob, by the way.",
		"Where did I leave off? Continue from there and finish the migration.",
		"what's my name, and add it to the README",
		"do you remember that we use pnpm?",
		"Can you remember to always use tabs?",
		"Did the build pass?",
		"Who wrote this function?",
		"What did the linter complain about?",
		"what did I do wrong in this query?",
		"When was Go 1.22 released?",
		"Which branch should this PR target, main or develop?",
		"",
		"   ",
		"Explain what my function does and why it panics.",
		"Where are we storing the sessions?",
	),
	pos("zh",
		"我叫什么名字",
		"我叫什么名字？",
		"我的名字是什么",
		"我是谁？",
		"我上次做到哪了",
		"我上次做到哪了？",
		"我们上次聊到哪了",
		"我们之前决定了什么",
		"我们之前决定了什么？",
		"你还记得我的名字吗？",
		"你还记得我们选了哪个数据库吗",
		"你还记得吗？",
		"我现在在哪个分支上？",
		"我在做哪个工单",
		"我之前在做什么？",
		"我昨天在忙什么",
		"关于缓存，我们是怎么决定的？",
		"为什么我们选了 Map 而不是 lru-cache？",
		"提醒我一下我们的提交格式是什么",
		"我的邮箱是什么？",
		"我跟你说过我的时区吗？",
		"我喜欢用什么编辑器？",
		"你好，我上次做到哪一步了？",
		"我们之前讨论了什么？",
		"我当前的任务是什么？",
		"下一步做什么？",
		"你知道我叫什么吗",
	),
	neg("zh",
		"我叫张三。",
		"我们决定用 Postgres。",
		"记住：部署目标是 Render。",
		"提醒我明天跑测试。",
		"这个函数返回什么？",
		"配置文件在哪里加载？",
		"怎么运行测试？",
		"为什么这个测试失败了？",
		"哪个库更小？",
		"帮我提交这个修改。",
		"添加一个 .nvmrc 文件，固定 Node 20。",
		"我们的提交信息以 Jira 编号开头。",
		"我这周在做 PAY-1432。",
		"你还记得我叫张三吗？",
		"我叫什么名字？我叫李四，顺便说一下。",
		"我上次做到哪了？继续把迁移做完。",
		"什么是闭包？",
		"谁写了这个函数？",
		"这个错误是什么意思？",
		"数据库连接串是什么格式？",
		"我想知道数据库叫什么，好像是 prod-db-1",
		"请解释一下这段代码做了什么。",
		"Go 1.22 什么时候发布的？",
		"这个 PR 应该合到哪个分支？",
		"把缓存换成普通的 Map。",
		"我们用 pnpm 管理依赖。",
	),
	pos("tr",
		"adım ne",
		"Adım ne?",
		"Benim adım neydi?",
		"ben kimim?",
		"nerede kalmıştım",
		"Nerede kalmıştım?",
		"En son nerede kalmıştık?",
		"hangi ticket üzerindeydim",
		"Hangi ticket üzerindeydim?",
		"ne üzerinde çalışıyordum",
		"Ne üzerinde çalışıyorduk?",
		"hatırlıyor musun",
		"Hatırlıyor musun?",
		"Önbellek hakkında ne karar vermiştik?",
		"neye karar verdik?",
		"Neden lru-cache yerine Map seçtik?",
		"hangi branchteyim?",
		"e-postam ne?",
		"Merhaba, nerede kalmıştık?",
		"bana commit formatını hatırlatır mısın?",
		"sana saat dilimim hakkında ne söylemiştim?",
		"push ettim mi?",
		"adımı biliyor musun?",
		"ADIM NE?",
		"nerede kalmistim",
		"dün ne yapıyordum?",
		"şu anki görevim ne?",
	),
	neg("tr",
		"Adım Ayşe.",
		"Postgres kullanmaya karar verdik.",
		"Unutma: deploy hedefi Render.",
		"Yarın testleri çalıştırmamı hatırlat.",
		"Bu fonksiyon ne döndürüyor?",
		"Yapılandırma dosyası nerede yükleniyor?",
		"Testleri nasıl çalıştırırım?",
		"Bu test neden başarısız oluyor?",
		"Hangi kütüphane daha küçük?",
		"Bu değişikliği commit et.",
		"Node 20'yi sabitleyen bir .nvmrc dosyası ekle.",
		"Commit mesajlarımız Jira anahtarıyla başlar.",
		"Bu hafta PAY-1432 üzerindeyim.",
		"Adım ne? Adım Ayşe bu arada.",
		"Nerede kalmıştım? Devam et ve migration'ı bitir.",
		"Closure nedir?",
		"Bu fonksiyonu kim yazdı?",
		"Bu hata ne demek?",
		"Go 1.22 ne zaman çıktı?",
		"Bu PR hangi dala gitmeli?",
		"Önbelleği düz bir Map ile değiştir.",
		"Bağımlılıkları pnpm ile yönetiyoruz.",
		"Veritabanının adını merak ediyorum, prod-db-1 galiba.",
		"Bu adım ne işe yarıyor, açıklar mısın?",
		"README dosyasını güncelle.",
		"Hangi yöntem daha hızlı çalışıyor?",
	),
	pos("ja",
		"私の名前は何？",
		"どこまでやったっけ？",
		"何を決めたっけ？",
		"覚えてる？",
	),
	neg("ja",
		"この関数は何を返す？",
		"テストを追加してください。",
	),
)

func concat(parts ...[]questionCase) []questionCase {
	var out []questionCase
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestIsRecallQuestion(t *testing.T) {
	for _, c := range questionTable {
		if got := capture.IsRecallQuestion(c.text); got != c.recall {
			t.Errorf("[%s] IsRecallQuestion(%q) = %v, want %v", c.lang, c.text, got, c.recall)
		}
	}
}

// TestQuestionTableSize keeps the tables as large as the brief asks: at
// least 25 positives and 25 negatives for each of English, Chinese and
// Turkish.
func TestQuestionTableSize(t *testing.T) {
	n := map[string]int{}
	for _, c := range questionTable {
		n[fmt.Sprintf("%s/%v", c.lang, c.recall)]++
	}
	for _, lang := range []string{"en", "zh", "tr"} {
		for _, r := range []bool{true, false} {
			if k := fmt.Sprintf("%s/%v", lang, r); n[k] < 25 {
				t.Errorf("%s has %d cases, want at least 25", k, n[k])
			}
		}
	}
}

// TestRecallHeldOut measures precision and recall on a set written before
// the rules and never tuned against, and compares them with the golden
// figures so that a change that loses ground shows up.
func TestRecallHeldOut(t *testing.T) {
	for _, name := range []string{"recall_heldout", "recall_stress", "recall_blind"} {
		t.Run(name, func(t *testing.T) { measureRecall(t, name) })
	}
}

func measureRecall(t *testing.T, name string) {
	f, err := os.Open("testdata/" + name + ".tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type counts struct{ tp, fp, fn, tn int }
	per := map[string]*counts{}
	var misses []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.SplitN(line, "\t", 3)
		if len(cols) != 3 {
			t.Fatalf("bad line %q", line)
		}
		lang, want, text := cols[0], cols[1] == "1", cols[2]
		for _, key := range []string{lang, "all"} {
			if per[key] == nil {
				per[key] = &counts{}
			}
		}
		got := capture.IsRecallQuestion(text)
		for _, key := range []string{lang, "all"} {
			c := per[key]
			switch {
			case got && want:
				c.tp++
			case got && !want:
				c.fp++
			case !got && want:
				c.fn++
			default:
				c.tn++
			}
		}
		if got != want {
			misses = append(misses, fmt.Sprintf("miss [%s] want %v: %s", lang, want, text))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, lang := range []string{"en", "zh", "tr", "all"} {
		c := per[lang]
		if c == nil {
			t.Fatalf("no %s cases", lang)
		}
		fmt.Fprintf(&b, "%s precision %s recall %s (tp %d fp %d fn %d tn %d)\n", lang,
			ratio(c.tp, c.tp+c.fp), ratio(c.tp, c.tp+c.fn), c.tp, c.fp, c.fn, c.tn)
	}
	for _, m := range misses {
		b.WriteString(m + "\n")
	}
	golden(t, "testdata/golden/"+name+".golden", b.String())
}

func ratio(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", float64(a)/float64(b))
}

func FuzzIsRecallQuestion(f *testing.F) {
	for _, c := range questionTable {
		f.Add(c.text)
	}
	f.Add("\xff\xfe what is my name?")
	f.Add(strings.Repeat("what is my name? ", 50))
	f.Fuzz(func(t *testing.T, s string) {
		a := capture.IsRecallQuestion(s)
		if a != capture.IsRecallQuestion(s) {
			t.Fatal("not deterministic")
		}
		// Appending a request for work always turns a message into content.
		if capture.IsRecallQuestion(s + "\nPlease add a README file.") {
			t.Fatalf("%q with a request for work counted as a recall question", s)
		}
	})
}
