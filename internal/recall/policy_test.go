package recall

import (
	"testing"

	"github.com/cairn-memory/cairn/internal/memory"
)

// TestPolicyMatrix walks the whole matrix: global switches × presets ×
// provider × session kind × channel.
func TestPolicyMatrix(t *testing.T) {
	presets := []Preset{PresetDefault, PresetMemoryOn, PresetRecallOnly, PresetPrivate, PresetLearnOnly}
	providers := []memory.Provider{memory.ProviderClaudeCode, memory.ProviderCodex, memory.ProviderOpenCode}
	bools := []bool{false, true}
	n := 0
	for _, enabled := range bools {
		for _, capture := range bools {
			for _, rec := range bools {
				for _, p := range presets {
					for _, prov := range providers {
						for _, sub := range bools {
							for _, ch := range []Channel{HookContext, UserText} {
								g := Global{Enabled: enabled, Capture: capture, Recall: rec}
								s := Session{Provider: prov, Preset: p, Subagent: sub}
								d := Decide(g, s, ch)
								n++
								read, write := p.Policies()
								wantRead := enabled && rec && read != Deny &&
									!(read == Inherit && prov == memory.ProviderCodex && ch == UserText)
								wantWrite := enabled && capture && write != Deny && !(write == Inherit && sub)
								if d.Read != wantRead || d.Write != wantWrite {
									t.Errorf("global %+v preset %q %s subagent %v %s: got read %v write %v, want %v %v",
										g, p, prov, sub, ch, d.Read, d.Write, wantRead, wantWrite)
								}
								if !d.Read && d.Reason == "" {
									t.Errorf("no reason given for a refused read: %+v %+v", g, s)
								}
								// A session never re-enables what a global switch turned off.
								if (!enabled || !rec) && d.Read {
									t.Errorf("session re-enabled recall: %+v %+v", g, s)
								}
								if (!enabled || !capture) && d.Write {
									t.Errorf("session re-enabled capture: %+v %+v", g, s)
								}
							}
						}
					}
				}
			}
		}
	}
	if n != 2*2*2*5*3*2*2 {
		t.Fatalf("matrix of %d cases", n)
	}
}

func TestPresets(t *testing.T) {
	cases := map[string]Preset{"private": PresetPrivate, "Recall only": PresetRecallOnly, "memory_on": PresetMemoryOn, "learn-only": PresetLearnOnly, "default": PresetDefault}
	for in, want := range cases {
		if got, err := ParsePreset(in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	if _, err := ParsePreset("loud"); err == nil {
		t.Error("unknown preset accepted")
	}
	g := Global{true, true, true}
	if d := Decide(g, Session{Provider: memory.ProviderClaudeCode, Preset: PresetPrivate}, HookContext); d.Read || d.Write {
		t.Error("a private session reads or learns")
	}
	if d := Decide(g, Session{Provider: memory.ProviderClaudeCode, OneShot: true}, HookContext); !d.Read || d.Write {
		t.Error("a one-shot run must be recall-only by default")
	}
	if d := Decide(g, Session{Provider: memory.ProviderCodex, Preset: PresetRecallOnly}, UserText); !d.Read {
		t.Error("an explicit recall-only lets Codex take the block in prompt text")
	}
}
