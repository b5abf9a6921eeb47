package config

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// Validate checks ranges and names, so a typo fails loudly at start rather
// than silently changing behaviour.
func (c Config) Validate() error {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	unit := func(name string, v float64) {
		if v < 0 || v > 1 {
			bad("%s must be between 0 and 1, not %v", name, v)
		}
	}
	nonNeg := func(name string, v int) {
		if v < 0 {
			bad("%s must not be negative", name)
		}
	}
	unit("capture.merge_jaccard", c.Capture.MergeJaccard)
	unit("temporal.restatement", c.Temporal.Restatement)
	unit("rank.rank_share", c.Rank.RankShare)
	unit("rank.lexical_share", c.Rank.LexicalShare)
	unit("rank.derived_floor", c.Rank.DerivedFloor)
	for name, w := range map[string]float64{"rank.weight_l1": c.Rank.WeightL1, "rank.weight_l2": c.Rank.WeightL2, "rank.weight_l0": c.Rank.WeightL0, "rank.weight_l3": c.Rank.WeightL3, "rank.pin_boost": c.Rank.PinBoost} {
		if w < 0 {
			bad("%s must not be negative", name)
		}
	}
	nonNeg("recall.l1_limit", c.Recall.L1Limit)
	nonNeg("recall.l2_limit", c.Recall.L2Limit)
	nonNeg("recall.l0_limit", c.Recall.L0Limit)
	nonNeg("recall.l3_limit", c.Recall.L3Limit)
	nonNeg("capture.episode_cap", c.Capture.EpisodeCap)
	if c.Recall.BudgetTokens <= 0 {
		bad("recall.budget_tokens must be positive")
	}
	if c.Recall.MaxChars <= 0 || c.Recall.MaxChars > 10000 {
		bad("recall.max_chars must be between 1 and 10000 (Claude Code drops hook context past 10,000 characters)")
	}
	if c.Search.MaxQueryTerms < 1 {
		bad("search.max_query_terms must be at least 1")
	}
	c.Embeddings.validate(bad)
	c.Models.validate(bad)
	if c.Hooks.Resident && c.Hooks.Idle.D() < time.Second {
		bad("hooks.resident_idle must be at least 1s")
	}
	if c.Phase1.Parallel < 1 {
		bad("phase1.parallel must be at least 1")
	}
	switch c.Memory.Version {
	case "v1", "v2", "dual":
	default:
		bad("memory.version must be v1, v2 or dual, not %q", c.Memory.Version)
	}
	rungs := map[string]string{
		"temporal.rung_user": c.Temporal.UserClassRung, "temporal.rung_preference": c.Temporal.PrefClassRung,
		"temporal.rung_convention": c.Temporal.ConvClassRung, "temporal.rung_decision": c.Temporal.DecisionRung,
		"temporal.rung_environment": c.Temporal.EnvironmentRung, "temporal.rung_task": c.Temporal.TaskRung,
	}
	for name, v := range rungs {
		r, err := memory.ParseRung(v)
		if err != nil || r == memory.RungNone {
			bad("%s must be worktree, project, repo or everywhere, not %q", name, v)
		}
	}
	if r, err := memory.ParseRung(c.Temporal.EnvironmentRung); err == nil && r.Wider(memory.RungProject) {
		bad("temporal.rung_environment can never be wider than project")
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		return memory.Errorf(memory.CodeInvalid, "configuration: %s", strings.Join(problems, "; "))
	}
	return nil
}
