package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/config"
	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/model"
	"github.com/cairn-memory/cairn/internal/sqlite"
	"github.com/cairn-memory/cairn/internal/vault"
)

// matrixCell is one scenario, run through every provider.
type matrixCell struct {
	name string
	// phase is the one phase given the model under test; the others stay
	// deterministic.
	phase string
	setup func(cfg *config.Config) // knobs beyond the defaults
	// mayNotArrive: a call may be cut before the model hears it.
	mayNotArrive bool
	play         func(c *cellRun) func(n int, h heard) step
	// check runs the phase and checks its outcome; it returns the
	// statuses cairn must have recorded, in order.
	check func(t *testing.T, c *cellRun) []string
}

// cellRun is one cell of the matrix: a data dir, an engine with the
// provider under test, and its scripted model.
type cellRun struct {
	rig     rig
	w       *vaultWorld
	eng     *engine.Engine
	db      *sqlite.DB
	model   *scripted
	logs    *logLines
	outside string // a folder the model must not reach
}

func (c *cellRun) ctx() context.Context { return context.Background() }

// TestModelMatrix runs each provider — chat completions, Anthropic
// Messages, claude -p, codex exec — against a scripted model speaking its
// real protocol, through each scenario issue 11 names, and checks after
// each that `cairn costs` lists exactly the calls the model received.
func TestModelMatrix(t *testing.T) {
	for _, r := range rigs() {
		for _, cell := range matrixCells() {
			t.Run(r.provider+"/"+cell.name, func(t *testing.T) { runCell(t, r, cell) })
		}
	}
}

func runCell(t *testing.T, r rig, cell matrixCell) {
	t0 := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	c := &cellRun{rig: r, w: &vaultWorld{dataDir: t.TempDir(), clock: newTestClock(t0), home: t.TempDir()},
		logs: &logLines{}, outside: t.TempDir()}
	c.model = &scripted{}
	c.model.play = cell.play(c)
	cfg := config.Default()
	cfg.Models.MaxRetries = 0
	// Long enough for a subprocess on a loaded machine; the timeout cell
	// sets its own, and its model never answers.
	cfg.Models.Timeout = config.Duration(2 * time.Minute)
	r.start(t, c.model, &cfg.Models)
	ref := r.provider + ":" + r.model
	switch cell.phase {
	case model.PhaseExtraction:
		cfg.Models.Extraction = ref
	case model.PhaseConsolidation:
		cfg.Models.Consolidation = ref
	case model.PhaseTurnFacts:
		cfg.Models.TurnFacts = ref
	}
	if cell.setup != nil {
		cell.setup(&cfg)
	}
	c.eng, c.db = c.w.engineWith(t, cfg)
	env := map[string]string{"OPENAI_API_KEY": "sk-test-openai", "ANTHROPIC_API_KEY": "sk-ant-test"}
	if err := useModels(c.eng, cfg, func(k string) string { return env[k] }, c.logs.add); err != nil {
		t.Fatal(err)
	}
	twoSessions(t, c.eng, t0)
	want := cell.check(t, c)

	// Every call the model received, and every call skipped for the
	// budget, is in `cairn costs`, under this provider and phase.
	heardN := len(c.model.all())
	if got := len(want) - count(want, model.CallSkipped); got != heardN && (!cell.mayNotArrive || heardN > got) {
		t.Errorf("the cell expects %d calls sent, the model received %d", got, heardN)
	}
	t.Setenv("CAIRN_HOME", c.w.dataDir)
	code, out, errOut := run(t, "costs", "--since", "2000-01-01", "--json")
	if code != 0 {
		t.Fatalf("costs: %d %s", code, errOut)
	}
	var cr engine.CostReport
	if err := json.Unmarshal([]byte(out), &cr); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, call := range cr.Calls {
		got = append(got, call.Status)
		if call.Provider != r.provider || call.Phase != cell.phase {
			t.Errorf("call recorded as %s/%s, want %s/%s", call.Phase, call.Provider, cell.phase, r.provider)
		}
		if call.Status == model.CallOK && (call.In == 0 || !call.Priced || call.CostUSD <= 0) {
			t.Errorf("an answered call without tokens or price: %+v", call)
		}
	}
	// Calls running in parallel are recorded in the order they end.
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("cairn costs lists %q, want %q", got, want)
	}
	if rows, err := c.db.ModelCalls(c.ctx(), memory.LocalAccount, time.Time{}); err != nil || len(rows) != len(cr.Calls) {
		t.Errorf("store holds %d calls, costs shows %d (%v)", len(rows), len(cr.Calls), err)
	}
	// A CLI ran with memory off, every time.
	for _, h := range c.model.all() {
		if strings.HasSuffix(r.provider, "-cli") && h.Preset != "private" {
			t.Errorf("the CLI ran with CAIRN_PRESET %q", h.Preset)
		}
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// consolidate settles the turns and runs phase 1 deterministically,
// then one consolidation.
func (c *cellRun) consolidate(t *testing.T) *engine.ModelPass {
	t.Helper()
	if _, err := c.eng.Maintain(c.ctx()); err != nil {
		t.Fatal(err)
	}
	if rep, err := c.eng.ExtractDue(c.ctx()); err != nil || rep.Failed+rep.Retried != 0 {
		t.Fatalf("phase 1: %+v %v", rep, err)
	}
	reps, err := c.eng.Consolidate(c.ctx(), true)
	if err != nil || len(reps) != 1 || reps[0].Model == nil {
		t.Fatalf("phase 2: %+v %v", reps, err)
	}
	return reps[0].Model
}

func (c *cellRun) extractions() ([]memory.Extraction, error) {
	return c.db.Extractions(c.ctx(), memory.LocalAccount, distill.V1)
}

const refusalText = "I'm sorry, but I can't help with rewriting this memory."

func matrixCells() []matrixCell {
	return []matrixCell{
		{
			name: "extraction", phase: model.PhaseExtraction,
			play: func(c *cellRun) func(int, heard) step {
				return func(_ int, h heard) step { return step{Text: validExtraction(h.Prompt), In: 2000, Out: 300} }
			},
			check: func(t *testing.T, c *cellRun) []string {
				rep, err := c.eng.ExtractDue(c.ctx())
				if err != nil || rep.Extracted != 2 || rep.Failed+rep.Retried != 0 {
					t.Fatalf("phase 1: %+v %v", rep, err)
				}
				xs, err := c.extractions()
				if err != nil || len(xs) != 2 {
					t.Fatalf("extractions: %v %v", xs, err)
				}
				for _, x := range xs {
					if x.Model != c.rig.provider+":"+c.rig.model || !strings.Contains(x.RawMemory, "## Preference signals") ||
						!strings.Contains(x.RawMemory, "never npm") || strings.Contains(x.RawMemory, "99999") {
						t.Errorf("extraction %s by %q:\n%s", x.Slug, x.Model, x.RawMemory)
					}
				}
				for _, h := range c.model.all() {
					if !strings.Contains(h.Prompt, "<<<CAIRN-DATA") || !strings.Contains(h.Prompt, "[user]") {
						t.Errorf("the transcript did not arrive fenced as data:\n%s", cutForLog(h.Prompt))
					}
				}
				return repeat(model.CallOK, 2)
			},
		},
		{
			name: "consolidation-with-tools", phase: model.PhaseConsolidation,
			play: func(c *cellRun) func(int, heard) step {
				var handbook string
				return func(n int, h heard) step {
					switch n {
					case 0:
						return step{Text: "Let me look.", In: 3000, Out: 100, Calls: []stepCall{
							{Name: "read_file", Args: map[string]any{"path": "MEMORY.md"}},
							{Name: "list_files", Args: map[string]any{"dir": ""}},
						}}
					case 1:
						if len(h.Results) == 2 && !h.Results[0].IsError {
							handbook = h.Results[0].Text
						}
						return step{In: 4000, Out: 500, Calls: []stepCall{{Name: "search_files", Args: map[string]any{"query": "pnpm"}},
							{Name: "write_file", Args: map[string]any{"path": "MEMORY.md", "content": handbook + "\n- Model note: pnpm everywhere.\n"}}}}
					}
					return step{Text: "Merged the handbook.", In: 4500, Out: 20}
				}
			},
			check: func(t *testing.T, c *cellRun) []string {
				mp := c.consolidate(t)
				if mp.Fallback != "" || mp.Calls != 3 || mp.Tools != 4 || !slices.Equal(mp.Written, []string{distill.MemoryPath}) {
					t.Fatalf("model pass: %+v", mp)
				}
				if mp.Final != "Merged the handbook." {
					t.Errorf("final words %q", mp.Final)
				}
				heard := c.model.all()
				if len(heard) != 3 || len(heard[1].Results) != 2 || heard[1].Results[0].Name != "read_file" ||
					!strings.Contains(heard[1].Results[0].Text, "<!-- s:") || heard[1].Results[1].Name != "list_files" ||
					!strings.Contains(heard[1].Results[1].Text, "raw_memories.md") {
					t.Fatalf("the tool results the model got back: %+v", heard)
				}
				if r := heard[2].Results; len(r) != 2 || r[0].IsError || r[1].IsError || !strings.Contains(r[0].Text, "pnpm") {
					t.Errorf("search and write results: %+v", r)
				}
				if n := strings.Count(heard[2].Prompt, `"name":"read_file"`); strings.HasSuffix(c.rig.provider, "-cli") && n != 1 {
					t.Errorf("the CLI prompt shows the first call %d times:\n%s", n, cutForLog(heard[2].Prompt))
				}
				if !strings.Contains(heard[0].Prompt, "<<<CAIRN-DATA raw_memories.md") {
					t.Errorf("the first message lacks raw_memories.md:\n%s", cutForLog(heard[0].Prompt))
				}
				if got := c.w.read(t, distill.MemoryPath); !strings.Contains(got, "Model note: pnpm everywhere.") || !strings.Contains(got, "<!-- s:") {
					t.Errorf("the model's handbook was not kept with its anchors:\n%s", got)
				}
				return repeat(model.CallOK, 3)
			},
		},
		{
			name: "invalid-output", phase: model.PhaseExtraction,
			setup: func(cfg *config.Config) { cfg.Phase1.MaxAttempts = 1 },
			play: func(c *cellRun) func(int, heard) step {
				return func(int, heard) step {
					return step{In: 500, Out: 60, Text: `{"worth_keeping":true,"slug":"x","task":"x","task_group":"x","outcome":"great",` +
						`"tasks":[],"keywords":[],"preference_signals":[],"knowledge":[],"failure_shields":[],"rollout_summary":"x"}`}
				}
			},
			check: func(t *testing.T, c *cellRun) []string {
				rep, err := c.eng.ExtractDue(c.ctx())
				if err != nil || rep.Failed != 2 || rep.Extracted != 0 {
					t.Fatalf("phase 1: %+v %v", rep, err)
				}
				retries := 0
				for _, h := range c.model.all() {
					if strings.HasPrefix(h.Last, "That answer is not valid") && strings.Contains(h.Last, `"great"`) {
						retries++
					}
				}
				if len(c.model.all()) != 4 || retries != 2 {
					t.Errorf("%d requests, %d of them retries naming the fault; want each session asked twice", len(c.model.all()), retries)
				}
				if xs, _ := c.extractions(); len(xs) != 0 {
					t.Errorf("an invalid answer was stored: %+v", xs)
				}
				return repeat(model.CallOK, 4)
			},
		},
		{
			name: "timeout", phase: model.PhaseExtraction,
			setup: func(cfg *config.Config) {
				// A CLI is a process that must start before it can hang.
				cfg.Models.Timeout = config.Duration(300 * time.Millisecond)
				if strings.Contains(cfg.Models.Extraction, "-cli:") {
					cfg.Models.Timeout = config.Duration(3 * time.Second)
				}
			},
			// A call cut before the process reached the script is still a
			// call made (and recorded); it just was not heard.
			mayNotArrive: true,
			play: func(c *cellRun) func(int, heard) step {
				return func(int, heard) step { return step{Hang: true} }
			},
			check: func(t *testing.T, c *cellRun) []string {
				rep, err := c.eng.ExtractDue(c.ctx())
				if err != nil || rep.Extracted != 0 || rep.Retried != 2 {
					t.Fatalf("phase 1: %+v %v", rep, err)
				}
				calls, err := c.db.ModelCalls(c.ctx(), memory.LocalAccount, time.Time{})
				if err != nil {
					t.Fatal(err)
				}
				for _, call := range calls {
					if !strings.Contains(call.Error, "timed out") {
						t.Errorf("a timed-out call recorded as %q", call.Error)
					}
				}
				if xs, _ := c.extractions(); len(xs) != 0 {
					t.Errorf("extractions after a timeout: %+v", xs)
				}
				return repeat(model.CallFailed, 2)
			},
		},
		{
			// A refusal in extraction; and in consolidation after a write,
			// which must be put back. Codex exec has no refusal signal: its
			// refusal is words, which extraction rejects as invalid output.
			name: "refusal", phase: model.PhaseExtraction,
			setup: func(cfg *config.Config) { cfg.Phase1.MaxAttempts = 1 },
			play: func(c *cellRun) func(int, heard) step {
				return func(int, heard) step { return step{Refuse: c.rig.refusal, Text: refusalText, In: 400, Out: 15} }
			},
			check: func(t *testing.T, c *cellRun) []string {
				rep, err := c.eng.ExtractDue(c.ctx())
				if err != nil || rep.Failed != 2 || rep.Extracted != 0 {
					t.Fatalf("phase 1: %+v %v", rep, err)
				}
				if xs, _ := c.extractions(); len(xs) != 0 {
					t.Errorf("stored after a refusal: %+v", xs)
				}
				if !c.rig.refusal {
					// Words, not a signal: shown back once as invalid, then failed.
					if len(c.model.all()) != 4 {
						t.Errorf("codex asked %d times, want each session twice", len(c.model.all()))
					}
					return repeat(model.CallOK, 4)
				}
				if len(c.model.all()) != 2 {
					t.Errorf("a refusal was asked again: %d requests", len(c.model.all()))
				}
				return repeat(model.CallRefused, 2)
			},
		},
		{
			name: "consolidation-refusal", phase: model.PhaseConsolidation,
			play: func(c *cellRun) func(int, heard) step {
				return func(n int, h heard) step {
					if n == 0 {
						return step{In: 3000, Out: 100, Calls: []stepCall{{Name: "write_file", Args: map[string]any{"path": "MEMORY.md", "content": "# hijacked\n"}}}}
					}
					return step{Refuse: c.rig.refusal, Text: refusalText, In: 3100, Out: 15}
				}
			},
			check: func(t *testing.T, c *cellRun) []string {
				mp := c.consolidate(t)
				got := c.w.read(t, distill.MemoryPath)
				if !c.rig.refusal {
					// codex: the words end the loop like any final answer;
					// what was written is then held to the checks, which
					// catch a rewrite that dropped the handbook's anchors.
					if mp.Calls != 2 || mp.Final != refusalText || !strings.Contains(mp.Fallback, "dropped the anchor") || len(mp.Written) != 0 {
						t.Fatalf("model pass: %+v", mp)
					}
					if strings.Contains(got, "hijacked") || !strings.Contains(got, "<!-- s:") {
						t.Errorf("the write that dropped every anchor was kept:\n%s", got)
					}
					return repeat(model.CallOK, 2)
				}
				if !strings.Contains(mp.Fallback, "refused") || len(mp.Written) != 0 || mp.Calls != 2 {
					t.Fatalf("model pass: %+v", mp)
				}
				if strings.Contains(got, "hijacked") || !strings.Contains(got, "<!-- s:") {
					t.Errorf("the refused pass's write was kept:\n%s", got)
				}
				if !strings.Contains(c.logs.all(), "deterministic files kept") {
					t.Errorf("the fallback was not logged:\n%s", c.logs.all())
				}
				return []string{model.CallOK, model.CallRefused}
			},
		},
		{
			name: "path-traversal", phase: model.PhaseConsolidation,
			play: func(c *cellRun) func(int, heard) step {
				return func(n int, h heard) step {
					if n == 0 {
						// A link inside the vault that points outside.
						if err := os.Symlink(c.outside, filepath.Join(c.w.dataDir, vault.V1Dir, "skills", "evil")); err != nil {
							panic(err)
						}
						return step{In: 3000, Out: 300, Calls: []stepCall{
							{Name: "write_file", Args: map[string]any{"path": "../outside.md", "content": "escaped"}},
							{Name: "write_file", Args: map[string]any{"path": filepath.Join(c.outside, "abs.md"), "content": "escaped"}},
							{Name: "read_file", Args: map[string]any{"path": "../../../../etc/passwd"}},
							{Name: "write_file", Args: map[string]any{"path": "rollout_summaries/forged.md", "content": "forged"}},
							{Name: "write_file", Args: map[string]any{"path": "skills/evil/SKILL.md", "content": "escaped through a link"}},
							{Name: "read_file", Args: map[string]any{"path": "skills/evil/secret.md"}},
						}}
					}
					return step{Text: "Nothing to change.", In: 3500, Out: 10}
				}
			},
			check: func(t *testing.T, c *cellRun) []string {
				if err := os.WriteFile(filepath.Join(c.outside, "secret.md"), []byte("outside secret"), 0o600); err != nil {
					t.Fatal(err)
				}
				mp := c.consolidate(t)
				if mp.Fallback != "" || mp.Calls != 2 || mp.Tools != 6 || len(mp.Written) != 0 {
					t.Fatalf("model pass: %+v", mp)
				}
				if len(mp.Refused) != 6 {
					t.Errorf("refused accesses: %q", mp.Refused)
				}
				heard := c.model.all()
				if len(heard) != 2 || len(heard[1].Results) != 6 {
					t.Fatalf("results: %+v", heard)
				}
				for _, r := range heard[1].Results {
					if !r.IsError || strings.Contains(r.Text, "outside secret") || strings.Contains(r.Text, "root:") {
						t.Errorf("%s was not refused: %q", r.Name, r.Text)
					}
				}
				if got := c.logs.all(); strings.Count(got, "refused model") != 6 {
					t.Errorf("log:\n%s", got)
				}
				ents, _ := os.ReadDir(c.outside)
				if len(ents) != 1 || ents[0].Name() != "secret.md" {
					t.Errorf("the folder outside holds %v", ents)
				}
				if _, err := os.Stat(filepath.Join(c.w.dataDir, "outside.md")); err == nil {
					t.Error("the model wrote beside the vault")
				}
				if c.w.exists("rollout_summaries/forged.md") {
					t.Error("the model forged an input file")
				}
				return repeat(model.CallOK, 2)
			},
		},
		{
			name: "budget-mid-pass", phase: model.PhaseConsolidation,
			setup: func(cfg *config.Config) { cfg.Models.DailyBudget = 0.10 },
			play: func(c *cellRun) func(int, heard) step {
				// One call of 100,000 tokens spends the budget at every
				// rig's price (and the claude CLI reports $0.45).
				return func(int, heard) step {
					return step{In: 100000, Out: 10000, Calls: []stepCall{{Name: "write_file", Args: map[string]any{"path": "MEMORY.md", "content": "# half-written\n"}}}}
				}
			},
			check: func(t *testing.T, c *cellRun) []string {
				mp := c.consolidate(t)
				if !mp.Skipped || mp.Calls != 2 || len(mp.Written) != 0 {
					t.Fatalf("model pass: %+v", mp)
				}
				if got := c.w.read(t, distill.MemoryPath); strings.Contains(got, "half-written") || !strings.Contains(got, "<!-- s:") {
					t.Errorf("the half-written handbook was kept:\n%s", got)
				}
				return []string{model.CallOK, model.CallSkipped}
			},
		},
		{
			name: "turn-facts", phase: model.PhaseTurnFacts,
			play: func(c *cellRun) func(int, heard) step {
				return func(_ int, h heard) step {
					if strings.Contains(h.Prompt, "never npm") {
						return step{In: 300, Out: 40, Text: `{"facts":[{"kind":"fact","subject":"repo","predicate":"package_manager","object":"pnpm","class":"convention","category":"dependency"},` +
							`{"kind":"fact","subject":"repo","predicate":"note","object":"this fact has far too many words to be kept as a slot value","class":"task","category":"misc"}]}`}
					}
					return step{In: 200, Out: 5, Text: `{"facts":[]}`}
				}
			},
			check: func(t *testing.T, c *cellRun) []string {
				if n := len(c.model.all()); n != 0 {
					t.Fatalf("the import called the model %d times", n)
				}
				if _, err := c.eng.Maintain(c.ctx()); err != nil {
					t.Fatal(err)
				}
				facts, err := c.db.Statements(c.ctx(), memory.LocalAccount, memory.StatementFilter{Current: true})
				if err != nil {
					t.Fatal(err)
				}
				var pm *memory.Statement
				for i, s := range facts {
					if s.Predicate == "package_manager" {
						pm = &facts[i]
					}
					if strings.Contains(s.Object, "far too many words") {
						t.Errorf("a fact over ten words was kept: %+v", s)
					}
				}
				if pm == nil || pm.Tier != memory.TierInferred || pm.Object != "pnpm" {
					t.Fatalf("turn fact: %+v", pm)
				}
				// One call per turn: s1 has two, s2 one.
				if n := len(c.model.all()); n != 3 {
					t.Errorf("the model was asked %d times for three turns", n)
				}
				return repeat(model.CallOK, 3)
			},
		},
	}
}

func cutForLog(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}
