package app

import (
	"fmt"
	"time"

	"github.com/cairn-memory/cairn/internal/anthropic"
	"github.com/cairn-memory/cairn/internal/clicmd"
	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/model"
	"github.com/cairn-memory/cairn/internal/openai"
	"github.com/cairn-memory/cairn/internal/vault"
)

// ModelTools hands a consolidation model vault's file tools.
func (f *vaultFiles) ModelTools(log func(string)) (model.FileTools, error) {
	v, err := f.open()
	if err != nil {
		return nil, err
	}
	return v.Tools(log), nil
}

var _ engine.ModelToolVault = (*vaultFiles)(nil)

// useModels switches the engine's phases to the models the configuration
// names; with none named it does nothing. Keys are read from the
// environment (getenv), never from the file.
func useModels(eng *engine.Engine, cfg config.Config, getenv func(string) string, log func(string)) error {
	mc := cfg.Models
	m := engine.Models{DailyBudget: mc.DailyBudget, MaxSteps: mc.MaxSteps, Log: log}
	any := false
	for _, ph := range []struct {
		ref string
		dst **engine.ModelProvider
	}{{mc.Extraction, &m.Extraction}, {mc.Consolidation, &m.Consolidation}, {mc.TurnFacts, &m.TurnFacts}} {
		ref, ok, err := config.ParseModelRef(ph.ref)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		p, err := provider(ref, mc, getenv)
		if err != nil {
			return err
		}
		*ph.dst, any = p, true
	}
	if !any {
		return nil
	}
	base, _ := model.ParsePrices(model.DefaultPrices)
	over, err := model.ParsePrices(mc.Prices)
	if err != nil {
		return fmt.Errorf("models.prices: %w", err)
	}
	m.Prices = base.Merge(over)
	return eng.UseModels(m)
}

// provider builds the adapter a phase names.
func provider(ref config.ModelRef, mc config.Models, getenv func(string) string) (*engine.ModelProvider, error) {
	timeout := time.Duration(mc.Timeout)
	p := &engine.ModelProvider{Provider: ref.Provider, Model: ref.Model}
	switch ref.Provider {
	case config.ProviderOpenAI:
		p.Chat = openai.New(openai.Options{BaseURL: mc.BaseURL, APIKey: getenv(mc.OpenAIKeyEnv), KeyEnv: mc.OpenAIKeyEnv,
			Model: ref.Model, Timeout: timeout, MaxRetries: mc.MaxRetries})
	case config.ProviderAnthropic:
		p.Chat = anthropic.New(anthropic.Options{BaseURL: mc.AnthropicURL, APIKey: getenv(mc.AnthropicEnv), KeyEnv: mc.AnthropicEnv,
			Model: ref.Model, Timeout: timeout, MaxRetries: mc.MaxRetries})
	case config.ProviderClaudeCLI, config.ProviderCodexCLI:
		kind, cmd := clicmd.Claude, mc.ClaudeCommand
		if ref.Provider == config.ProviderCodexCLI {
			kind, cmd = clicmd.Codex, mc.CodexCommand
		}
		c, err := clicmd.New(clicmd.Options{Kind: kind, Command: cmd, Model: ref.Model, Timeout: timeout})
		if err != nil {
			return nil, err
		}
		p.Chat = c
	}
	return p, nil
}

// vault.Tools must satisfy the model's file tools.
var _ model.FileTools = (*vault.Tools)(nil)
