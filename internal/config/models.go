package config

import (
	"fmt"
	"strings"

	"github.com/cairn-memory/cairn/internal/model"
)

// Model providers a phase may name.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderClaudeCLI = "claude-cli"
	ProviderCodexCLI  = "codex-cli"
)

// ModelRef is a phase's "provider:model" setting, read.
type ModelRef struct {
	Provider string
	Model    string // "" lets a CLI use its own default
}

// ParseModelRef reads "provider:model"; "" is no model (ok false).
func ParseModelRef(s string) (ModelRef, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return ModelRef{}, false, nil
	}
	p, m, _ := strings.Cut(s, ":")
	r := ModelRef{Provider: strings.TrimSpace(p), Model: strings.TrimSpace(m)}
	switch r.Provider {
	case ProviderOpenAI, ProviderAnthropic:
		if r.Model == "" {
			return r, false, fmt.Errorf("%q names no model; write %s:<model>", s, r.Provider)
		}
	case ProviderClaudeCLI, ProviderCodexCLI:
	default:
		return r, false, fmt.Errorf("%q: unknown provider %q; use openai, anthropic, claude-cli or codex-cli", s, r.Provider)
	}
	return r, true, nil
}

// validate checks the models table.
func (m Models) validate(bad func(string, ...any)) {
	for key, v := range map[string]string{"models.extraction": m.Extraction, "models.consolidation": m.Consolidation, "models.turn_facts": m.TurnFacts} {
		if _, _, err := ParseModelRef(v); err != nil {
			bad("%s: %v", key, err)
		}
	}
	if _, err := model.ParsePrices(m.Prices); err != nil {
		bad("models.prices: %v", err)
	}
	if m.DailyBudget < 0 {
		bad("models.daily_budget_usd must not be negative")
	}
	if m.MaxRetries < 0 {
		bad("models.max_retries must not be negative")
	}
	if m.MaxSteps < 1 {
		bad("models.consolidation_steps must be at least 1")
	}
}
