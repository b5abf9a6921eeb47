package corpus

// The vocabulary below was written for this package. It is deliberately
// narrow in topic (everyday software work) and wide in form, so that
// search and redaction meet text that looks like the real thing.

var components = []string{
	"payment service", "retry queue", "ledger writer", "webhook handler",
	"rate limiter", "session cache", "migration runner", "config loader",
	"auth middleware", "search index", "billing export", "CLI parser",
	"feature flag client", "metrics exporter", "connection pool",
	"invoice renderer", "event bus", "schema validator", "background worker",
	"upload pipeline", "notification fan-out", "audit log", "refund flow",
	"currency converter", "GraphQL resolver", "gRPC gateway", "cron scheduler",
	"token refresher", "image resizer", "CSV importer", "report builder",
	"permissions check", "health endpoint", "dead letter queue", "sync job",
}

var problems = []string{
	"a nil pointer dereference when the config file is missing",
	"a race between the flush loop and shutdown",
	"duplicate rows after a retried request",
	"a timeout under load when the pool is exhausted",
	"an off-by-one error in pagination",
	"stale cache entries after a deploy",
	"a slow memory leak in the JSON decoder",
	"tests that fail on CI but pass locally",
	"wrong rounding for currencies with three decimals",
	"a deadlock when two writers commit at once",
	"a panic on an empty batch",
	"timestamps stored in local time instead of UTC",
	"a migration that locks the whole table",
	"retries that ignore the Retry-After header",
	"a goroutine that never exits after cancel",
	"headers that are dropped by the proxy",
	"an index that the planner refuses to use",
	"a flaky snapshot test around time zones",
	"unbounded growth of the in-memory queue",
	"an error that is logged twice and returned once",
}

var reasons = []string{
	"so that retries stay idempotent",
	"to keep the hot path free of allocations",
	"because the old code swallowed the error",
	"so the behaviour matches the API docs",
	"to avoid holding the lock across I/O",
	"because the tests depended on map order",
	"so that a partial write can be resumed",
	"to make the failure visible in the metrics",
	"because the config default was unsafe",
	"so the migration can run online",
	"to cut the p99 latency of the endpoint",
	"because two callers disagreed on ownership",
}

var pastVerbs = []string{
	"refactored", "traced", "fixed", "rewrote", "benchmarked", "profiled",
	"simplified", "documented", "split", "renamed", "tightened",
	"instrumented", "removed", "inlined", "reworked", "guarded",
}

var imperatives = []string{
	"fix", "refactor", "add tests for", "investigate", "speed up",
	"clean up", "document", "review", "migrate", "rename", "remove",
	"port", "profile", "harden", "simplify", "split up",
}

var nameParts = []string{
	"user", "account", "invoice", "retry", "count", "ledger", "entry", "batch",
	"size", "token", "cache", "key", "max", "min", "limit", "timeout",
	"handler", "request", "response", "status", "code", "event", "queue",
	"worker", "pool", "conn", "config", "path", "file", "line", "offset",
	"cursor", "page", "total", "amount", "currency", "rate", "window", "flush",
	"commit", "txn", "schema", "version", "row", "index", "hash", "digest",
	"node", "span", "trace", "refund", "charge", "merchant", "payout", "webhook",
	"session", "tenant", "region", "shard", "lease", "backoff", "deadline",
}

var dirParts = []string{
	"internal", "pkg", "cmd", "src", "lib", "app", "services", "api", "web",
	"scripts", "tests", "billing", "ledger", "auth", "storage", "worker",
	"handlers", "models", "components", "utils_legacy", "migrations", "config",
}

var langExts = []string{".go", ".go", ".go", ".py", ".py", ".ts", ".tsx", ".rs", ".sql", ".yaml", ".md", ".sh"}

var ticketProjects = []string{"PAY", "OPS", "CORE", "WEB", "DATA", "SEC", "INFRA", "MOB", "API", "BILL"}

var projects = []string{
	"payments-api", "ledger", "web-console", "infra-tools", "search-svc",
	"mobile-app", "data-pipeline", "auth-gateway", "docs-site", "cairn-cli",
	"notifier", "billing-worker", "risk-engine", "merchant-portal",
}

var homes = []string{"/home/dev/src", "/Users/sam/work", "/home/alex/code", "/srv/build/repos"}

var branchWords = []string{
	"retry-backoff", "fix-rounding", "ledger-v2", "cleanup", "flaky-ci",
	"pool-timeouts", "audit-log", "refund-idempotency", "upgrade-deps",
	"bench-import", "schema-split", "rate-limit",
}

var claudeModels = []string{"claude-opus-4-6", "claude-sonnet-4-5-20250929", "claude-opus-4-5-20251101"}

var claudeVersions = []string{"2.1.38", "2.1.39", "2.1.45", "2.1.50"}

var codexModels = []string{"gpt-5.1-codex", "gpt-5.2-codex", "gpt-5-codex"}

var codexVersions = []string{"0.125.0", "0.128.0", "0.129.0"}

// Chinese sentences about the same everyday work, for prompts and answers
// written in Chinese.
var chinese = []string{
	"请帮我看一下这个函数为什么在并发情况下会出错。",
	"测试已经全部通过，但是基准测试比上周慢了大约百分之十五。",
	"我们需要在不停机的情况下完成这次数据库迁移。",
	"这个接口的超时时间太短了，高峰期经常失败。",
	"日志里出现了很多重复的错误信息，能不能合并一下？",
	"请把这个模块拆成更小的文件，每个文件只负责一件事。",
	"重试逻辑没有考虑幂等性，可能会产生重复扣款。",
	"缓存失效以后，第一次请求特别慢。",
	"配置文件缺失的时候程序直接崩溃了，应该给出清楚的提示。",
	"先写一个能复现问题的测试，然后再修改代码。",
	"这次改动只影响结算服务，不需要通知移动端团队。",
	"我已经更新了文档，并在变更日志里记录了这次修复。",
	"内存占用在导入大文件时一直上涨，怀疑有泄漏。",
	"请检查一下时区处理，所有时间都应该按协调世界时保存。",
	"分页的最后一页少了一条记录，像是边界条件写错了。",
	"构建在持续集成上失败了，本地却可以通过。",
	"把错误信息改得更具体一些，告诉用户下一步该做什么。",
	"这个索引没有被使用，查询计划走了全表扫描。",
	"代码审查里提到锁的范围太大，请缩小到只保护共享状态。",
	"修复已经合并到主分支，明天会随下一个版本发布。",
}

// Short phrases a coding agent says between tool calls.
var commentary = []string{
	"Let me look at how this is wired up first.",
	"I'll check the tests before changing anything.",
	"Now I understand the flow; the bug is in the retry path.",
	"Running the test suite to confirm the fix.",
	"The failure reproduces locally, which makes this easier.",
	"Let me search for other callers of this function.",
	"I'll read the config loader to see where the default comes from.",
	"That output confirms the lock is held across the network call.",
	"Checking git history to see when this changed.",
	"The build is green; now the benchmarks.",
	"I'll make the smallest change that fixes it and add a regression test.",
	"Let me update the plan with what I found.",
}

var fileLangs = map[string]string{
	".go": "go", ".py": "python", ".ts": "ts", ".tsx": "ts", ".rs": "rust",
	".sql": "sql", ".yaml": "yaml", ".md": "markdown", ".sh": "shell",
}
