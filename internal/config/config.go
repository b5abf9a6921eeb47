package config

import "time"

// Config is the effective configuration. Every field carries a toml tag
// (its key within its table) and a doc tag; the key registry is derived from
// these tags, so a new knob is one field here.
type Config struct {
	Memory     Memory     `toml:"memory"`
	Capture    Capture    `toml:"capture"`
	Recall     Recall     `toml:"recall"`
	Rank       Rank       `toml:"rank"`
	Search     Search     `toml:"search"`
	Temporal   Temporal   `toml:"temporal"`
	Vault      Vault      `toml:"vault"`
	Phase1     Phase1     `toml:"phase1"`
	Phase2     Phase2     `toml:"phase2"`
	TurnFacts  TurnFacts  `toml:"turn_facts"`
	Models     Models     `toml:"models"`
	Embeddings Embeddings `toml:"embeddings"`
	Server     Server     `toml:"server"`
	Hooks      Hooks      `toml:"hooks"`
}

// Memory holds the global switches. A session may narrow them, never widen.
type Memory struct {
	Enabled       bool   `toml:"enabled" doc:"master switch: off means no capture and no recall"`
	Capture       bool   `toml:"capture" doc:"learn from turns and tools"`
	Recall        bool   `toml:"recall" doc:"show recalled memory to agents"`
	LearnExternal bool   `toml:"learn_external" doc:"learn from turns that carried external context (MCP, files, images, browser, referenced chats, provider tools, recalled memory)"`
	Version       string `toml:"version" doc:"memory pipeline for new sessions: v1, v2 or dual"`
}

// Capture tunes deterministic capture (seed 000).
type Capture struct {
	SettlingWindow Duration `toml:"settling_window" doc:"a candidate is promoted this long after its turn, reset by later turns"`
	EpisodeCap     int      `toml:"episode_cap" doc:"unpinned L2 episodes kept per project"`
	MergeJaccard   float64  `toml:"merge_jaccard" doc:"token Jaccard at which two L1 notes are one"`
	ProfileMin     int      `toml:"profile_min_notes" doc:"active L1 notes needed before an L3 profile is built"`
}

// Recall tunes what the agent is shown.
type Recall struct {
	L1Limit      int      `toml:"l1_limit" doc:"at most this many L1 notes and facts per block"`
	L2Limit      int      `toml:"l2_limit" doc:"at most this many L2 episodes from earlier sessions"`
	L0Limit      int      `toml:"l0_limit" doc:"at most this many L0 excerpts, only when the request asks about earlier work"`
	L3Limit      int      `toml:"l3_limit" doc:"profiles per block"`
	BudgetTokens int      `toml:"budget_tokens" doc:"token budget of the whole recall block, its fixed text included (pinned rules are never dropped)"`
	MaxChars     int      `toml:"max_chars" doc:"hard cap on one injection, summary included (Claude Code caps hook context at 10,000)"`
	EveryPrompt  bool     `toml:"every_prompt" doc:"recall on every prompt instead of only the first of a session"`
	TimeZone     string   `toml:"time_zone" doc:"zone for times shown in blocks (IANA name, or Local)"`
	FirstTurnRow int      `toml:"first_turn_rows" doc:"fact rows read for the first-turn block"`
	RecentWindow Duration `toml:"recent_changes_window" doc:"closed rows this recent are listed as recent changes"`
	RecentLimit  int      `toml:"recent_changes_limit" doc:"at most this many recent changes"`
}

// Rank holds the seed's fusion weights: layer_weight × (rank × 0.6 +
// lexical × 0.4) × confidence, then a pin boost.
type Rank struct {
	WeightL1     float64 `toml:"weight_l1" doc:"layer weight of L1 statements"`
	WeightL2     float64 `toml:"weight_l2" doc:"layer weight of L2 episodes"`
	WeightL0     float64 `toml:"weight_l0" doc:"layer weight of L0 parts"`
	WeightL3     float64 `toml:"weight_l3" doc:"layer weight of the L3 profile"`
	RankShare    float64 `toml:"rank_share" doc:"share of the reciprocal-rank score"`
	LexicalShare float64 `toml:"lexical_share" doc:"share of the lexical coverage score"`
	PinBoost     float64 `toml:"pin_boost" doc:"added to a pinned row's fused score"`
	DerivedFloor float64 `toml:"derived_floor" doc:"least query coverage a note, fact, episode or profile needs to be ranked at all"`
}

// Search tunes the lexical search.
type Search struct {
	MaxQueryTerms int `toml:"max_query_terms" doc:"query terms kept, the most informative first"`
}

// Temporal tunes the bi-temporal statement store (seed 002).
type Temporal struct {
	Restatement     float64  `toml:"restatement" doc:"character-bigram overlap at which a new value restates the old"`
	HoldbackTurns   int      `toml:"holdback_refusals" doc:"refused turns carrying a model-written fact before it is held back"`
	HoldbackWindow  Duration `toml:"holdback_window" doc:"window in which refusals are counted"`
	TopPredicates   int      `toml:"top_predicates" doc:"most used predicates shown to extractors so slot names stay stable"`
	UserClassRung   string   `toml:"rung_user" doc:"default place of class user"`
	PrefClassRung   string   `toml:"rung_preference" doc:"default place of class preference"`
	ConvClassRung   string   `toml:"rung_convention" doc:"default place of class convention"`
	DecisionRung    string   `toml:"rung_decision" doc:"default place of class decision"`
	EnvironmentRung string   `toml:"rung_environment" doc:"default place of class environment (never wider than project)"`
	TaskRung        string   `toml:"rung_task" doc:"default place of class task"`
}

// Vault tunes the memory folder (seed 001).
type Vault struct {
	SummaryTokens int `toml:"summary_tokens" doc:"cap of memory_summary.md"`
	V2SummaryMax  int `toml:"v2_summary_bytes" doc:"cap of the V2 memory_summary.md"`
}

// Phase1 tunes per-session extraction.
type Phase1 struct {
	Idle        Duration `toml:"idle" doc:"a session idle this long is eligible"`
	MaxAge      Duration `toml:"max_age" doc:"sessions older than this are skipped"`
	Parallel    int      `toml:"parallel" doc:"extractions run at once"`
	Lease       Duration `toml:"lease" doc:"how long a claimed session stays claimed without progress"`
	MaxAttempts int      `toml:"max_attempts" doc:"attempts before an extraction is recorded as failed"`
}

// Phase2 tunes consolidation.
type Phase2 struct {
	Interval       Duration `toml:"interval" doc:"time between consolidations"`
	UnusedDays     Duration `toml:"unused" doc:"extractions unused this long are pruned and not published"`
	MaxExtractions int      `toml:"max_extractions" doc:"extractions published per pass"`
	Lease          Duration `toml:"lease" doc:"consolidation lease, renewed by heartbeat"`
}

// TurnFacts tunes model extraction of facts from turns (seed 002).
type TurnFacts struct {
	UserChars   int `toml:"user_chars" doc:"characters of the user's text sent per turn"`
	AnswerChars int `toml:"answer_chars" doc:"characters of the answer sent per turn"`
	MaxFacts    int `toml:"max_facts" doc:"facts kept per turn"`
	MaxWords    int `toml:"max_words" doc:"words per fact"`
}

// Models names the providers per phase (docs/models.md). Keys come from
// the environment only: the file names the variable, never the key.
type Models struct {
	Extraction    string   `toml:"extraction" doc:"provider:model for phase 1 (openai:, anthropic:, claude-cli: or codex-cli: and a model name); empty means deterministic"`
	Consolidation string   `toml:"consolidation" doc:"provider:model for phase 2, an agent with file tools scoped to the vault; empty means deterministic"`
	TurnFacts     string   `toml:"turn_facts" doc:"provider:model picking facts out of each finished turn (seed 002); empty means tool rules and markers only"`
	Embeddings    string   `toml:"embeddings" doc:"base URL of an OpenAI-compatible /v1/embeddings endpoint; empty means lexical only"`
	EmbedModel    string   `toml:"embedding_model" doc:"embedding model name"`
	BaseURL       string   `toml:"base_url" doc:"base URL of the openai provider's chat-completions API (ending in /v1: Ollama, vLLM, llama.cpp, LM Studio); empty means OpenAI's own"`
	OpenAIKeyEnv  string   `toml:"openai_key_env" doc:"environment variable holding the openai provider's API key (a local server may need none)"`
	AnthropicURL  string   `toml:"anthropic_base_url" doc:"base URL of the Anthropic Messages API; empty means Anthropic's own"`
	AnthropicEnv  string   `toml:"anthropic_key_env" doc:"environment variable holding the Anthropic API key"`
	ClaudeCommand string   `toml:"claude_command" doc:"the claude executable the claude-cli provider runs"`
	CodexCommand  string   `toml:"codex_command" doc:"the codex executable the codex-cli provider runs"`
	DailyBudget   float64  `toml:"daily_budget_usd" doc:"estimated spend per day after which model work is skipped and retried the next day (0 = no limit)"`
	Prices        string   `toml:"prices" doc:"model=in/out in US dollars per million tokens, comma-separated; adds to and overrides the built-in price table"`
	Timeout       Duration `toml:"timeout" doc:"timeout of one model call"`
	MaxRetries    int      `toml:"max_retries" doc:"retries of a model API call answered 429 or 5xx, with the SDK's backoff"`
	MaxSteps      int      `toml:"consolidation_steps" doc:"model calls one consolidation pass may make before it falls back to the deterministic files"`
}

// Embeddings configures the optional semantic leg of search: vectors from
// an OpenAI-compatible /v1/embeddings endpoint, computed in the background
// and fused with the lexical legs inside each layer. Empty base_url: lexical
// only. The key comes from the environment variable named by key_env.
type Embeddings struct {
	BaseURL       string   `toml:"base_url" doc:"API root of an OpenAI-compatible embeddings endpoint, e.g. http://127.0.0.1:11434/v1 (Ollama); empty means lexical search only"`
	Model         string   `toml:"model" doc:"embedding model; changing it re-embeds in the background, and rows of another model are never mixed in"`
	Dimensions    int      `toml:"dimensions" doc:"vector length asked of the model (0 = the model's own)"`
	KeyEnv        string   `toml:"key_env" doc:"environment variable holding the API key (never the key itself)"`
	Batch         int      `toml:"batch" doc:"texts sent per request"`
	MaxChars      int      `toml:"max_chars" doc:"characters of a row that are embedded (the start of it)"`
	PerRound      int      `toml:"per_round" doc:"rows embedded per background round at most"`
	Timeout       Duration `toml:"timeout" doc:"timeout of one background embeddings request"`
	QueryTimeout  Duration `toml:"query_timeout" doc:"timeout of embedding a search's query; past it the search is lexical only"`
	RRFK          float64  `toml:"rrf_k" doc:"constant k of reciprocal rank fusion, 1/(k+rank), of the lexical and semantic legs"`
	MinSimilarity float64  `toml:"min_similarity" doc:"least cosine similarity for a row to join the semantic leg (model-dependent); such a note, fact or episode is ranked even when it shares too few words with the query"`
}

// Hooks tunes how the clients' hooks are answered.
type Hooks struct {
	Resident bool     `toml:"resident" doc:"answer hooks from a resident process that keeps the store open (the first hook starts it; it exits when idle, or when cairn or its config changes)"`
	Idle     Duration `toml:"resident_idle" doc:"the resident process exits after this long without a hook"`
}

// Server tunes `cairn serve`.
type Server struct {
	Addr      string `toml:"addr" doc:"listen address"`
	BodyLimit int64  `toml:"body_limit" doc:"largest request body in bytes"`
	RateLimit int    `toml:"rate_limit" doc:"requests per minute per token"`
}

// Default returns the seeds' values.
func Default() Config {
	return Config{
		Memory: Memory{Enabled: true, Capture: true, Recall: true, LearnExternal: true, Version: "v1"},
		Capture: Capture{
			SettlingWindow: Duration(30 * time.Minute),
			EpisodeCap:     300,
			MergeJaccard:   0.8,
			ProfileMin:     3,
		},
		Recall: Recall{
			L1Limit: 12, L2Limit: 3, L0Limit: 3, L3Limit: 1,
			BudgetTokens: 600, MaxChars: 9000, TimeZone: "Local",
			FirstTurnRow: 6, RecentWindow: Duration(48 * time.Hour), RecentLimit: 3,
		},
		Rank: Rank{
			WeightL1: 1.00, WeightL2: 0.92, WeightL0: 0.85, WeightL3: 0.75,
			RankShare: 0.6, LexicalShare: 0.4, PinBoost: 0.05, DerivedFloor: 0.25,
		},
		Search: Search{MaxQueryTerms: 12},
		Temporal: Temporal{
			Restatement: 0.7, HoldbackTurns: 2, HoldbackWindow: Duration(30 * 24 * time.Hour), TopPredicates: 40,
			UserClassRung: "everywhere", PrefClassRung: "everywhere", ConvClassRung: "repo",
			DecisionRung: "project", EnvironmentRung: "project", TaskRung: "worktree",
		},
		Vault: Vault{SummaryTokens: 2500, V2SummaryMax: 10000},
		Phase1: Phase1{
			Idle: Duration(6 * time.Hour), MaxAge: Duration(10 * 24 * time.Hour),
			Parallel: 4, Lease: Duration(15 * time.Minute), MaxAttempts: 3,
		},
		Phase2: Phase2{
			Interval: Duration(3 * time.Hour), UnusedDays: Duration(30 * 24 * time.Hour),
			MaxExtractions: 256, Lease: Duration(10 * time.Minute),
		},
		TurnFacts: TurnFacts{UserChars: 2500, AnswerChars: 2500, MaxFacts: 5, MaxWords: 10},
		Models: Models{OpenAIKeyEnv: "OPENAI_API_KEY", AnthropicEnv: "ANTHROPIC_API_KEY", ClaudeCommand: "claude", CodexCommand: "codex",
			Timeout: Duration(2 * time.Minute), MaxRetries: 2, MaxSteps: 24},
		Embeddings: Embeddings{
			KeyEnv: "CAIRN_EMBEDDINGS_API_KEY", Batch: 64, MaxChars: 2000, PerRound: 5000,
			Timeout: Duration(time.Minute), QueryTimeout: Duration(2 * time.Second), RRFK: 60, MinSimilarity: 0.3,
		},
		Server: Server{Addr: "127.0.0.1:7777", BodyLimit: 8 << 20, RateLimit: 600},
		Hooks:  Hooks{Resident: true, Idle: Duration(30 * time.Minute)},
	}
}
