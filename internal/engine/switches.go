package engine

import (
	"context"
	"strconv"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/memory"
)

// SettingStore keeps the settings changed at run time.
type SettingStore interface {
	Settings(ctx context.Context, acct memory.AccountID) (map[string]string, error)
	SetSetting(ctx context.Context, acct memory.AccountID, key, value string) error
}

// storeKeys are the settings that live in the store (set with `cairn config
// set`, the UI, or the API), over the configuration file's values.
var storeKeys = map[string]bool{
	"memory.enabled": true, "memory.capture": true, "memory.recall": true, "memory.learn_external": true,
	"memory.version": true, "recall.every_prompt": true, "recall.budget_tokens": true, "recall.time_zone": true,
	"recall.l1_limit": true, "recall.l2_limit": true, "recall.l0_limit": true,
	"temporal.rung_user": true, "temporal.rung_preference": true, "temporal.rung_convention": true,
	"temporal.rung_decision": true, "temporal.rung_environment": true, "temporal.rung_task": true,
}

// Switches are the global switches in force.
type Switches struct {
	Enabled       bool `json:"enabled"`
	Capture       bool `json:"capture"`
	Recall        bool `json:"recall"`
	LearnExternal bool `json:"learn_external"`
}

// CaptureOn reports whether learning is on: the master switch and the
// capture switch.
func (s Switches) CaptureOn() bool { return s.Enabled && s.Capture }

// RecallOn reports whether recall is on.
func (s Switches) RecallOn() bool { return s.Enabled && s.Recall }

// Effective returns the configuration with the store's settings applied.
func (e *Engine) Effective(ctx context.Context) (config.Config, map[string]string, error) {
	set, err := e.store.Settings(ctx, e.acct)
	if err != nil {
		return e.cfg, nil, err
	}
	c := e.cfg
	for k, v := range set {
		if !storeKeys[k] {
			continue
		}
		if nc, err := c.Set(k, v); err == nil {
			c = nc
		}
	}
	return c, set, nil
}

// Switches reads the global switches in force.
func (e *Engine) Switches(ctx context.Context) (Switches, error) {
	c, _, err := e.Effective(ctx)
	if err != nil {
		return Switches{}, err
	}
	m := c.Memory
	return Switches{Enabled: m.Enabled, Capture: m.Capture, Recall: m.Recall, LearnExternal: m.LearnExternal}, nil
}

// SetSetting changes a run-time setting; an empty value returns the key to
// the configuration file's value. Turning capture back on runs the work
// that waited while it was off.
func (e *Engine) SetSetting(ctx context.Context, key, value string) error {
	if !storeKeys[key] {
		return memory.Errorf(memory.CodeInvalid, "%s cannot be changed at run time; set it in the configuration file (`cairn config show` lists the keys)", key)
	}
	if value != "" {
		if _, err := e.cfg.Set(key, value); err != nil {
			return err
		}
		if b, err := strconv.ParseBool(value); err == nil {
			value = strconv.FormatBool(b)
		}
	}
	if err := e.store.SetSetting(ctx, e.acct, key, value); err != nil {
		return err
	}
	sw, err := e.Switches(ctx)
	if err != nil {
		return err
	}
	if sw.CaptureOn() {
		_, err = e.DrainCaptureQueue(ctx)
	}
	return err
}
