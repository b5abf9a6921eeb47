package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/text"
)

// markSlot is the one-value slot a current-state sentence fills.
type markSlot struct {
	subject   string
	predicate string
	class     memory.Class
}

var (
	slotDeploy   = markSlot{"production", "deploy_target", memory.ClassEnvironment}
	slotCI       = markSlot{"project", "ci", memory.ClassConvention}
	slotPM       = markSlot{"project", "package_manager", memory.ClassConvention}
	slotDB       = markSlot{"project", "database", memory.ClassDecision}
	slotBranch   = markSlot{"project", "default_branch", memory.ClassConvention}
	slotTests    = markSlot{"project", "test_runner", memory.ClassConvention}
	slotBundler  = markSlot{"project", "bundler", memory.ClassConvention}
	slotLinter   = markSlot{"project", "linter", memory.ClassConvention}
	slotFormat   = markSlot{"project", "formatter", memory.ClassConvention}
	slotORM      = markSlot{"project", "orm", memory.ClassDecision}
	slotRegion   = markSlot{"production", "region", memory.ClassEnvironment}
	slotRegistry = markSlot{"project", "registry", memory.ClassEnvironment}
)

// markTopics maps what a sentence names ("our deploy target", "部署目标")
// to its slot. Keys are lowercase with single spaces. Read-only.
var markTopics = map[string]markSlot{
	"deploy target": slotDeploy, "deployment target": slotDeploy, "deploy platform": slotDeploy,
	"hosting": slotDeploy, "hosting provider": slotDeploy, "host": slotDeploy, "deploys": slotDeploy,
	"deployments": slotDeploy, "production": slotDeploy, "prod": slotDeploy,
	"ci": slotCI, "ci pipeline": slotCI, "ci system": slotCI, "ci provider": slotCI,
	"continuous integration": slotCI, "pipeline": slotCI, "build pipeline": slotCI,
	"package manager": slotPM, "database": slotDB, "db": slotDB, "main database": slotDB,
	"primary database": slotDB, "default branch": slotBranch, "main branch": slotBranch,
	"base branch": slotBranch, "test runner": slotTests, "test framework": slotTests,
	"testing framework": slotTests, "bundler": slotBundler, "build tool": slotBundler,
	"linter": slotLinter, "formatter": slotFormat, "orm": slotORM, "region": slotRegion,
	"aws region": slotRegion, "deploy region": slotRegion, "registry": slotRegistry,
	"container registry": slotRegistry, "docker registry": slotRegistry,
	"node version":   {"project", "node_version", memory.ClassEnvironment},
	"go version":     {"project", "go_version", memory.ClassEnvironment},
	"python version": {"project", "python_version", memory.ClassEnvironment},
	"staging url":    {"staging", "url", memory.ClassEnvironment},
	"production url": {"production", "url", memory.ClassEnvironment},
	"prod url":       {"production", "url", memory.ClassEnvironment},
	"api base url":   {"project", "api_base_url", memory.ClassEnvironment},
	"base url":       {"project", "api_base_url", memory.ClassEnvironment},
	"cloud provider": {"production", "cloud_provider", memory.ClassEnvironment},
	"error tracking": {"production", "error_tracking", memory.ClassEnvironment},
	"monitoring":     {"production", "monitoring", memory.ClassEnvironment},
	"message queue":  {"project", "queue", memory.ClassDecision},
	"auth provider":  {"project", "auth_provider", memory.ClassDecision},
	"editor":         {"user", "editor", memory.ClassPreference},
	"shell":          {"user", "shell", memory.ClassPreference},
	"timezone":       {"user", "timezone", memory.ClassUser},
	"部署目标":           slotDeploy, "部署平台": slotDeploy, "部署环境": slotDeploy, "线上环境": slotDeploy,
	"生产环境": slotDeploy, "托管平台": slotDeploy, "持续集成": slotCI, "流水线": slotCI,
	"ci 流水线": slotCI, "包管理器": slotPM, "包管理工具": slotPM, "数据库": slotDB, "主数据库": slotDB,
	"默认分支": slotBranch, "主分支": slotBranch, "测试框架": slotTests, "单测框架": slotTests,
	"打包工具": slotBundler, "构建工具": slotBundler, "格式化工具": slotFormat, "代码检查工具": slotLinter,
	"lint 工具": slotLinter, "部署区域": slotRegion, "镜像仓库": slotRegistry,
	"node 版本": {"project", "node_version", memory.ClassEnvironment},
	"go 版本":   {"project", "go_version", memory.ClassEnvironment},
	"编辑器":     {"user", "editor", memory.ClassPreference},
}

// markValues maps a product name to the slot it fills when a sentence
// only says "we switched to X". Read-only.
var markValues = map[string]markSlot{
	"pnpm": slotPM, "npm": slotPM, "yarn": slotPM, "bun": slotPM, "poetry": slotPM, "uv": slotPM,
	"pip": slotPM, "pipenv": slotPM, "conda": slotPM,
	"render": slotDeploy, "vercel": slotDeploy, "netlify": slotDeploy, "fly.io": slotDeploy,
	"fly": slotDeploy, "heroku": slotDeploy, "railway": slotDeploy, "aws": slotDeploy,
	"gcp": slotDeploy, "azure": slotDeploy, "cloudflare": slotDeploy, "digitalocean": slotDeploy,
	"kubernetes": slotDeploy, "k8s": slotDeploy, "ecs": slotDeploy, "cloud run": slotDeploy,
	"阿里云": slotDeploy, "腾讯云": slotDeploy, "华为云": slotDeploy,
	"buildkite": slotCI, "github actions": slotCI, "gitlab ci": slotCI, "circleci": slotCI,
	"jenkins": slotCI, "travis": slotCI, "drone": slotCI, "woodpecker": slotCI,
	"postgres": slotDB, "postgresql": slotDB, "mysql": slotDB, "mariadb": slotDB, "sqlite": slotDB,
	"mongodb": slotDB, "mongo": slotDB, "dynamodb": slotDB, "cockroachdb": slotDB,
	"planetscale": slotDB, "supabase": slotDB,
	"vitest": slotTests, "jest": slotTests, "pytest": slotTests, "mocha": slotTests,
	"vite": slotBundler, "webpack": slotBundler, "esbuild": slotBundler, "rollup": slotBundler,
	"turbopack": slotBundler, "parcel": slotBundler, "rspack": slotBundler,
	"eslint": slotLinter, "biome": slotLinter, "ruff": slotLinter, "golangci-lint": slotLinter,
	"oxlint": slotLinter, "prettier": slotFormat, "black": slotFormat, "gofumpt": slotFormat,
	"prisma": slotORM, "drizzle": slotORM, "typeorm": slotORM, "sequelize": slotORM,
	"sqlalchemy": slotORM, "gorm": slotORM,
}

// markVersion matches "Go 1.22", "Node 20", "Python 3.12".
var markVersion = lazyRE(`^(node(?:\.js|js)?|go|golang|python|java|ruby|rust|php|typescript|deno)\s+v?\d+(?:\.\d+)*$`)

// markTopicSlot finds the slot a topic names, trying the whole phrase and
// then ever shorter endings of it ("production deploy target").
func markTopicSlot(topic string) (markSlot, bool) {
	topic = strings.ToLower(strings.TrimSpace(topic))
	if slot, ok := markTopics[topic]; ok {
		return slot, true
	}
	words := strings.Fields(topic)
	for i := 1; i < len(words); i++ {
		if slot, ok := markTopics[strings.Join(words[i:], " ")]; ok {
			return slot, true
		}
	}
	// A Chinese topic has no spaces: try its endings rune by rune.
	for i, r := range topic {
		if i > 0 && unicode.Is(unicode.Han, r) {
			if slot, ok := markTopics[topic[i:]]; ok {
				return slot, true
			}
		}
	}
	return markSlot{}, false
}

// markValueSlot finds the slot a bare product name or version fills.
func markValueSlot(value string) (markSlot, bool) {
	v := strings.ToLower(strings.Trim(value, " `\"'.,"))
	if m := markVersion.FindStringSubmatch(v); m != nil {
		lang := strings.TrimSuffix(strings.TrimSuffix(m[1], ".js"), "js")
		if lang == "golang" {
			lang = "go"
		}
		return markSlot{"project", lang + "_version", memory.ClassEnvironment}, true
	}
	words := strings.Fields(v)
	if len(words) >= 2 {
		if slot, ok := markValues[words[0]+" "+words[1]]; ok {
			return slot, true
		}
	}
	if len(words) >= 1 {
		if slot, ok := markValues[strings.TrimSuffix(words[0], ",")]; ok {
			return slot, true
		}
	}
	return markSlot{}, false
}

// markGenericHeads are the nouns whose "X is now Y" is a setting worth a
// slot even when the topic is not in markTopics, with the class the slot
// takes. Anything else ("the build is now green") is a passing state.
var markGenericHeads = map[string]memory.Class{
	"url": memory.ClassEnvironment, "host": memory.ClassEnvironment, "hostname": memory.ClassEnvironment,
	"port": memory.ClassEnvironment, "path": memory.ClassEnvironment, "endpoint": memory.ClassEnvironment,
	"domain": memory.ClassEnvironment, "cluster": memory.ClassEnvironment, "bucket": memory.ClassEnvironment,
	"namespace": memory.ClassEnvironment, "directory": memory.ClassEnvironment, "folder": memory.ClassEnvironment,
	"server": memory.ClassEnvironment, "runtime": memory.ClassEnvironment, "version": memory.ClassEnvironment,
	"image": memory.ClassEnvironment, "branch": memory.ClassEnvironment, "repo": memory.ClassEnvironment,
	"repository": memory.ClassEnvironment, "provider": memory.ClassDecision, "framework": memory.ClassDecision,
	"library": memory.ClassDecision, "stack": memory.ClassDecision, "model": memory.ClassDecision,
	"tool": memory.ClassDecision, "language": memory.ClassDecision, "prefix": memory.ClassConvention,
	"channel": memory.ClassConvention, "owner": memory.ClassTask, "lead": memory.ClassTask,
}

// markStates are values that describe a passing state, not a setting.
var markStates = map[string]bool{
	"broken": true, "fixed": true, "green": true, "red": true, "passing": true, "failing": true,
	"done": true, "working": true, "up": true, "down": true, "live": true, "merged": true,
	"ready": true, "flaky": true, "slow": true, "fast": true, "fine": true, "ok": true, "okay": true,
	"better": true, "worse": true, "gone": true, "empty": true, "faster": true, "slower": true,
	"correct": true, "wrong": true, "stable": true, "unstable": true, "outdated": true,
	"configured": true, "enabled": true, "disabled": true, "on": true, "off": true, "available": true,
	"unavailable": true, "deployed": true, "released": true, "complete": true, "finished": true,
	"deprecated": true, "closed": true, "open": true, "blocked": true, "unblocked": true, "set": true,
	"missing": true, "required": true, "optional": true, "public": true, "private": true,
}

// markStateValue reports whether v is a state ("green", "much faster")
// rather than a value.
func markStateValue(v string) bool {
	w := strings.Fields(strings.ToLower(v))
	if len(w) == 0 {
		return true
	}
	switch w[0] {
	case "a", "an", "much", "very", "more", "less", "too", "so", "pretty", "quite", "really", "being",
		"at", "in", "under", "over", "about", "around", "almost", "way", "not", "no", "fully", "all",
		"it", "this", "that", "there", "here", "also", "still", "even", "just", "only", "now", "currently":
		return true
	}
	return markStates[strings.Trim(w[0], ".,!")] && len(w) <= 2
}

// markPredicate turns a topic into a short snake_case predicate.
func markPredicate(words []string) string {
	var out []string
	for _, w := range words {
		var b strings.Builder
		for _, r := range w {
			if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
				b.WriteRune(r)
			}
		}
		if b.Len() > 0 {
			out = append(out, b.String())
		}
	}
	if len(out) > 3 {
		out = out[len(out)-3:]
	}
	return strings.Join(out, "_")
}

// markCategories name what a note is about, by keyword; the keyword met
// first in the sentence wins, ties going to the earlier category.
// Read-only.
var markCategories = []struct {
	name  string
	words []string
}{
	{"testing", []string{"test", "tests", "testing", "unit test", "unit tests", "integration tests", "e2e", "jest", "vitest", "pytest", "go test", "coverage", "mock", "mocks", "mocking", "fixtures", "table-driven", "测试", "单测", "覆盖率"}},
	{"commit", []string{"commit", "commits", "committing", "commit message", "commit messages", "提交", "提交信息"}},
	{"package-manager", []string{"pnpm", "npm", "yarn", "bun", "pip", "pipenv", "poetry", "uv", "conda", "package manager", "包管理"}},
	{"git", []string{"git", "branch", "branches", "rebase", "rebasing", "squash", "squash-merge", "merge", "merging", "push", "pushing", "force-push", "force push", "force-pushing", "pull request", "pull requests", "pr", "prs", "分支", "合并", "变基", "推送"}},
	{"ci", []string{"ci", "pipeline", "github actions", "buildkite", "circleci", "jenkins", "流水线", "持续集成"}},
	{"deploy", []string{"deploy", "deploys", "deploying", "deployment", "production", "prod", "staging", "render", "vercel", "netlify", "heroku", "kubernetes", "k8s", "部署", "上线", "生产环境"}},
	{"database", []string{"database", "db", "postgres", "postgresql", "mysql", "sqlite", "migration", "migrations", "schema", "sql", "orm", "数据库", "表结构"}},
	{"dependency", []string{"dependency", "dependencies", "deps", "library", "libraries", "lru-cache", "vendor", "依赖", "第三方库"}},
	{"format", []string{"format", "formatting", "formatter", "prettier", "gofmt", "black", "indentation", "indent", "tabs", "spaces", "line length", "semicolons", "eslint", "lint", "linter", "linting", "格式化", "缩进", "代码风格"}},
	{"naming", []string{"naming", "camelcase", "snake_case", "kebab-case", "pascalcase", "命名"}},
	{"style", []string{"answer", "answers", "reply", "replies", "responses", "explanation", "explanations", "concise", "verbose", "brief", "terse", "emoji", "emojis", "tone", "chinese", "english", "回答", "回复", "简短", "简洁", "啰嗦", "中文", "英文", "语气"}},
	{"docs", []string{"docs", "documentation", "readme", "changelog", "comment", "comments", "docstring", "docstrings", "文档", "注释"}},
	{"logging", []string{"log", "logs", "logging", "logger", "日志"}},
	{"error-handling", []string{"error", "errors", "panic", "panics", "exception", "exceptions", "错误处理", "异常"}},
	{"security", []string{"secret", "secrets", "token", "tokens", "password", "passwords", "credential", "credentials", "api key", "api keys", "密钥", "密码"}},
	{"env", []string{"env var", "env vars", "environment variable", "environment variables", ".env", "dotenv", "环境变量"}},
}

// markCategory returns the category of a sentence, or "".
func markCategory(s string) string {
	low := strings.ToLower(s)
	best, bestAt := "", len(low)+1
	for _, c := range markCategories {
		for _, w := range c.words {
			if at := markFindWord(low, w); at >= 0 && at < bestAt {
				best, bestAt = c.name, at
			}
		}
	}
	return best
}

// markFindWord finds w in s as a whole word (for ASCII; CJK words match
// anywhere), returning its byte offset or -1.
func markFindWord(s, w string) int {
	ascii := w[0] < utf8.RuneSelf
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		j := i + len(w)
		if !ascii || (!markWordByte(s, i-1) && !markWordByte(s, j)) {
			return i
		}
		from = i + 1
	}
	return -1
}

func markWordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// markMarkerWords carry no content of their own: a note needs at least
// one word beyond them and the stop words.
var markMarkerWords = map[string]bool{
	"always": true, "never": true, "must": true, "please": true, "use": true, "make": true,
	"sure": true, "remember": true, "avoid": true, "prefer": true, "decided": true, "ever": true,
	"again": true, "going": true, "forward": true, "future": true, "rule": true, "okay": true,
	"ok": true, "thing": true, "things": true, "stuff": true, "everything": true, "anything": true,
	"like": true, "better": true, "rather": true, "keep": true, "let": true, "lets": true,
	"go": true, "stick": true, "do": true, "dont": true, "agreed": true, "chose": true,
}

// markEnContent counts the content words of an English sentence: words
// of two letters or more that are neither stop words nor marker words,
// and inline code.
func markEnContent(low string) int {
	n := strings.Count(low, "`x`") + strings.Count(low, `"q"`)
	for _, w := range strings.FieldsFunc(low, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'' || r == '-' || r == '_')
	}) {
		w = strings.ReplaceAll(strings.Trim(w, "'-_"), "'", "")
		if len(w) < 2 || w == "x" || w == "q" || text.IsStopWord(w) || markMarkerWords[w] {
			continue
		}
		n++
	}
	return n
}

// markValueCut ends a value: a clause that starts after it.
var markValueCut = lazyRE(`;|\s(?:because|since|so that|so|which|but|as|for|from|instead of|rather than|until|unless|when|while|if|with|and (?:it|we|i|they|the|that|this|please|so|then|now))\s|\s[-—–]\s|\s\(|, (?:it|it's|its|which|so|and|but|because|since|that|that's|this|we|we're|we've|they|i|i'm|as|though|although|thanks|please|now|then|for|not|instead|rather|with|no|yes|ok|plus|also|except|unless|if|when|until|after|before|while|hence)\b|[。！？；，]`)

// markTimeTail is a time phrase that trails a value ("last week").
var markTimeTail = lazyRE(`(?:\s+(?:(?:last|this|next|the past|past)\s+(?:week|month|sprint|year|quarter|release)|yesterday|today|recently|already|finally|too|as well|for now|at the moment|right now|currently|now|a while ago|a few (?:days|weeks|months) ago|[0-9]+ (?:days|weeks|months) ago|officially|for good|anyway|btw|again|entirely|completely))+$`)

// value reads a fact's value starting at low[i]: the rest of its clause,
// without a trailing time phrase, punctuation or quotes, in the user's
// spelling. A value is short; anything longer is not a value.
func (s *markSentence) value(i int) (string, bool) {
	t := s.low
	for i < len(t) && t[i] == ' ' {
		i++
	}
	end := len(t)
	if m := markValueCut.FindStringIndex(t[i:]); m != nil {
		end = i + m[0]
	}
	trim := func() {
		for end > i && strings.ContainsRune(" .,!:;)", rune(t[end-1])) {
			end--
		}
	}
	trim()
	end = i + len(markTimeTail.ReplaceAllString(t[i:end], ""))
	trim()
	if end <= i {
		return "", false
	}
	v := s.span(i, end)
	for _, q := range [][2]string{{"`", "`"}, {`"`, `"`}, {"“", "”"}, {"「", "」"}, {"'", "'"}} {
		if len(v) > len(q[0])+len(q[1]) && strings.HasPrefix(v, q[0]) && strings.HasSuffix(v, q[1]) {
			v = strings.TrimSpace(v[len(q[0]) : len(v)-len(q[1])])
		}
	}
	if v == "" || len(v) > 80 || len(strings.Fields(v)) > 8 || !strings.ContainsFunc(v, func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}) {
		return "", false
	}
	return v, true
}

// markWordSet makes a set of the space-separated words of list.
func markWordSet(list string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(list) {
		set[w] = true
	}
	return set
}
