package corpus

import "github.com/cairn-memory/cairn/internal/memory"

// The vocabulary of generated statements: what a team remembers about its
// services, tools and habits. Written for this package, like words.go.

// factFamily is a group of predicates that share a class, a category, the
// kind of subject they are said of and the kind of value they hold.
type factFamily struct {
	class    memory.Class
	category string
	weight   int // share of fact slots, out of the families' sum
	preds    []string
	subject  func(g *gen, c Checkout) string
	value    func(g *gen) string
}

// envPrefixed returns each predicate also as staging_ and production_
// variants, as teams keep one value per environment.
func envPrefixed(preds []string) []string {
	out := append([]string(nil), preds...)
	for _, env := range []string{"staging_", "production_"} {
		for _, p := range preds {
			out = append(out, env+p)
		}
	}
	return out
}

var deployPreds = append(envPrefixed([]string{
	"deploy_target", "deploy_region", "hosting", "replica_count", "memory_limit", "cpu_limit",
}), "cdn", "load_balancer", "dns_provider", "container_registry", "base_image", "k8s_namespace",
	"autoscaling_max", "health_check_path", "ingress", "tls_certificate_issuer", "secrets_manager",
	"log_sink", "metrics_backend", "tracing_backend", "error_tracker", "status_page",
	"feature_flag_service", "deploy_window", "rollout_strategy")

var portPreds = []string{"port", "metrics_port", "debug_port", "admin_port", "grpc_port", "health_port", "pprof_port", "websocket_port"}

var dataPreds = []string{
	"database", "cache", "queue", "search_backend", "object_store", "message_broker", "orm",
	"migration_tool", "connection_pool_size", "read_replica", "primary_key_type", "id_format",
	"sharding_key", "backup_schedule", "retention_period", "schema_registry", "serialization_format",
	"api_style", "auth_method", "session_store", "rate_limit_store", "job_runner", "scheduler",
	"email_provider", "sms_provider", "payment_processor", "analytics_store", "data_warehouse",
	"etl_tool", "cdc_tool", "feature_store", "vector_store", "lock_service", "idempotency_store",
	"audit_store", "dead_letter_queue", "event_store", "graph_store", "time_series_db", "blob_store",
}

var peoplePreds = []string{
	"owner", "on_call", "tech_lead", "reviewer", "product_manager", "escalation_contact",
	"security_contact", "release_manager", "designer", "qa_contact", "incident_commander",
	"sre_contact", "data_steward", "support_contact", "stakeholder",
}

var conventionPreds = []string{
	"ci", "formatter", "linter", "test_framework", "package_manager", "build_tool", "commit_style",
	"branch_naming", "release_process", "merge_strategy", "changelog_format", "docs_tool",
	"code_review_rule", "pr_template", "versioning_scheme", "test_command", "lint_command",
	"build_command", "coverage_threshold", "min_approvals", "protected_branch", "pre_commit_hook",
	"dependency_bot", "license_header", "error_wrapping", "logging_library", "http_framework",
	"mock_library", "fixture_format", "snapshot_tool", "api_doc_format", "migration_naming",
	"file_naming", "test_naming", "import_grouping", "test_data_policy", "docstring_style",
	"api_versioning", "error_codes", "config_format", "secret_scanning", "flaky_test_policy",
	"benchmark_tool", "profiler", "release_cadence",
}

var versionTools = []string{
	"go", "node", "python", "postgres", "redis", "kafka", "terraform", "kubernetes", "helm", "nginx",
	"envoy", "grpc", "protobuf", "react", "typescript", "webpack", "vite", "django", "flask",
	"fastapi", "rails", "java", "gradle", "rust", "docker", "alpine", "debian", "ubuntu",
	"elasticsearch", "opensearch", "rabbitmq", "nats", "clickhouse", "mysql", "sqlite", "openssl",
	"grafana", "prometheus", "otel_collector", "airflow", "kotlin", "swift", "ruby", "php", "dotnet",
	"spark", "flink", "consul", "vault", "istio",
}

var configPreds = append(envPrefixed([]string{
	"timeout", "retry_limit", "log_level", "rate_limit", "batch_size", "max_connections",
	"idle_timeout", "worker_count", "cache_ttl", "sample_rate",
}), "read_timeout", "write_timeout", "request_size_limit", "queue_depth_limit", "backoff_base",
	"backoff_max", "circuit_breaker_threshold", "page_size", "max_page_size", "token_ttl",
	"refresh_interval", "flush_interval", "gc_percent", "heap_limit", "alert_threshold")

// taskPreds are the session-state predicates the block shows history of.
var taskPreds = []string{"working_on", "current_ticket", "next_step", "blocked_on", "focus", "plan", "current_branch", "decided"}

var preferencePreds = []string{
	"indent_style", "error_handling", "naming_style", "test_style", "import_order", "line_length",
	"quote_style", "comment_style", "review_tone", "explanation_depth", "answer_language",
	"diff_format", "commit_size", "editor", "shell", "terminal", "font", "theme", "diff_tool",
	"git_client", "notebook", "note_app",
}

var userPreds = []string{"name", "timezone", "role", "team", "location", "working_hours", "github_handle", "pronouns", "manager", "start_date"}

var eventPreds = []string{
	"deployed", "released", "rolled_back", "incident", "outage", "migrated", "upgraded", "hotfixed",
	"load_tested", "postmortem", "pen_tested", "failed_deploy", "paged", "scaled_up", "scaled_down",
	"rotated_keys", "restored_backup", "cut_release", "merged", "reverted",
}

var deployValues = []string{
	"Render, Oregon", "fly.io ams", "k8s prod-eu-1", "AWS ECS us-east-1", "GKE europe-west4",
	"Heroku", "Hetzner fsn1", "Cloud Run us-central1", "bare metal rack 4", "Vercel", "Nomad dc2",
	"Azure AKS westeurope", "DigitalOcean fra1", "Cloudflare", "Fastly", "Datadog", "Honeycomb",
	"Sentry", "Grafana Cloud", "Loki", "Vault", "AWS Secrets Manager", "blue-green", "canary 5%",
	"Tuesday and Thursday mornings", "ghcr.io/acme", "distroless/static", "traefik", "Let's Encrypt",
}

var techValues = []string{
	"Postgres 16 on RDS", "Redis 7 (ElastiCache)", "Kafka (MSK)", "SQS", "RabbitMQ", "S3", "GCS",
	"ClickHouse", "BigQuery", "Snowflake", "OpenSearch", "NATS JetStream", "SQLite", "DynamoDB",
	"sqlc", "GORM", "goose", "Atlas", "Flyway", "Debezium", "Stripe", "Adyen", "Twilio", "SendGrid",
	"Temporal", "Airflow", "dbt", "UUIDv7", "ULID", "bigint identity", "protobuf", "JSON", "Avro",
	"gRPC", "REST", "GraphQL", "OIDC via Okta", "mTLS", "JWT", "nightly at 02:00 UTC", "90 days",
}

var people = []string{
	"Priya Nair", "Tomás Ruiz", "Mei Chen", "Jonas Weber", "Aisha Bello", "Sam Okafor",
	"Lena Fischer", "Ravi Kumar", "Noah Kim", "Sofia Rossi", "Omar Haddad", "Hana Sato",
	"Diego Alvarez", "Chloe Martin", "Yusuf Demir", "Eva Novak", "Kofi Mensah", "Ines Costa",
	"Marek Nowak", "Julia Berg", "Arjun Shah", "Zoe Laurent", "Ben Carter", "Wen Li",
}

var toolValues = []string{
	"GitHub Actions", "Buildkite", "CircleCI", "GitLab CI", "gofumpt", "golangci-lint", "ruff",
	"black", "prettier", "eslint", "pytest", "go test", "vitest", "jest", "pnpm", "npm", "uv",
	"poetry", "bazel", "make", "just", "Conventional Commits", "squash merge", "rebase and merge",
	"Keep a Changelog", "mkdocs", "Docusaurus", "two approvals", "semver", "calver", "80% lines",
	"Renovate", "Dependabot", "slog", "zerolog", "chi", "echo", "gomock", "testify", "golden files",
	"OpenAPI 3.1", "feat/<ticket>-<slug>", "lefthook", "pre-commit",
}

var styleValues = []string{
	"tabs", "spaces (4)", "wrap errors with %w", "table tests", "snake_case", "camelCase",
	"short answers with code first", "unified diff", "neovim", "VS Code", "GoLand", "zsh", "fish",
	"tmux", "JetBrains Mono", "solarized dark", "delta", "lazygit", "Obsidian", "Jupyter",
	"English", "small commits", "stdlib first, then third party", "100 columns", "double quotes",
	"why, not what", "direct and brief", "explain the trade-offs",
}

var userValues = []string{
	"Alex", "Europe/Berlin", "America/New_York", "Asia/Shanghai", "staff engineer", "platform team",
	"payments team", "Berlin", "Lisbon", "09:00-17:30", "@alexdev", "they/them", "Priya Nair",
	"2024-03-01", "backend engineer", "Toronto",
}

var languages = []string{"go", "python", "typescript", "sql", "git", "shell", "markdown", "rust", "terraform"}

// noteTemplates are the notes people keep: rules and habits in a
// sentence, filled like the prose templates ({c} component, {i}
// imperative, {p} problem, {r} reason, {f} path, {id} identifier, {t}
// ticket, {n} number); {who} is a person, {tool} a tool.
var noteTemplates = []string{
	"Always {i} the {c} {r}.",
	"Never {i} {f} without a test; it once caused {p}.",
	"We use {tool} for the {c}, not anything hand-rolled.",
	"Prefer {id} over a hand-written loop in {f}.",
	"Run the tests for the {c} with -race before pushing.",
	"Remember that the {c} has {p} under load.",
	"Don't {i} the {c} on Fridays.",
	"Ask {who} before you {i} {f}.",
	"When the {c} fails, check {t} first.",
	"Keep answers short and show the diff first.",
	"The {c} is owned by {who}; ask them before changing {f}.",
	"We decided to {i} the {c} {r}.",
	"Always write the migration for {t} so it can run online.",
	"We use {tool} in CI; {n} seconds is the budget for the whole suite.",
	"Log errors once, at the edge, and return them wrapped everywhere else.",
	"Never store timestamps in local time; the {c} reads UTC only.",
}
