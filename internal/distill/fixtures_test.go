package distill

import (
	"strconv"
	"time"

	"github.com/cairn-memory/cairn/internal/memory"
)

// builder writes a session the way the importers deliver it: each turn a
// user text part, then the assistant's text, tool calls and their results
// (Claude Code's Bash with "Exit code N" on failure, Codex's exec_command
// with its chunk header), with statements whose evidence points at the
// parts, as capture's rules would write them.
type builder struct {
	s      memory.Session
	clock  time.Time
	stmts  []memory.Statement
	nextID int64
	last   int // seq of the last part written
}

var (
	cairnPlace = memory.Place{Worktree: "/home/ana/cairn", Project: "/home/ana/cairn/.git", Repo: "github.com/ana/cairn"}
	shopPlace  = memory.Place{Worktree: "/home/ana/shop", Project: "/home/ana/shop/.git", Repo: "github.com/ana/shop"}
)

func session(id int64, ref string, prov memory.Provider, pl memory.Place, start time.Time, firstStmt int64) *builder {
	return &builder{
		s: memory.Session{ID: id, Provider: prov, ExternalID: ref, Cwd: pl.Worktree, Place: pl, Branch: "main",
			StartedAt: start, Account: memory.LocalAccount},
		clock: start, nextID: firstStmt,
	}
}

func (b *builder) tick() time.Time {
	b.clock = b.clock.Add(20 * time.Second)
	return b.clock
}

func (b *builder) turn() *memory.Turn { return &b.s.Turns[len(b.s.Turns)-1] }

func (b *builder) part(p memory.Part) *builder {
	t := b.turn()
	p.Seq = len(t.Parts)
	p.TurnID = t.ID
	p.Time = b.tick()
	t.Parts = append(t.Parts, p)
	b.last = p.Seq
	t.EndedAt = p.Time
	return b
}

// ask opens a completed turn with the user's request.
func (b *builder) ask(req string) *builder {
	seq := len(b.s.Turns) + 1
	b.s.Turns = append(b.s.Turns, memory.Turn{
		ID: b.s.ID*100 + int64(seq), SessionID: b.s.ID, Seq: seq, Key: b.s.ExternalID + "-t" + strconv.Itoa(seq),
		Request: req, Status: memory.TurnCompleted, StartedAt: b.tick(),
	})
	return b.part(memory.Part{Role: memory.RoleUser, Kind: memory.KindText, Text: req})
}

func (b *builder) say(text string) *builder {
	return b.part(memory.Part{Role: memory.RoleAssistant, Kind: memory.KindText, Text: text})
}

// answer is the assistant's final words of the turn.
func (b *builder) answer(text string) *builder {
	b.turn().Outcome = text
	return b.say(text)
}

// bash is a Claude Code Bash call and its result.
func (b *builder) bash(cmd, out string, exit int) *builder {
	b.part(memory.Part{Role: memory.RoleAssistant, Kind: memory.KindToolCall, Tool: "Bash",
		Text: "command: " + cmd + "\ndescription: Run " + cmd})
	res := memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Tool: "Bash", Text: out}
	if exit != 0 {
		res.IsError = true
		res.Text = "Exit code " + strconv.Itoa(exit) + "\n" + out
	}
	return b.part(res)
}

// exec is a Codex exec_command call and its framed result.
func (b *builder) exec(cmd, out string, exit int) *builder {
	b.part(memory.Part{Role: memory.RoleAssistant, Kind: memory.KindToolCall, Tool: "exec_command",
		Text: "cmd: " + cmd + "\nworkdir: " + b.s.Cwd + "\nyield_time_ms: 10000"})
	return b.part(memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Tool: "exec_command",
		Text: "Chunk ID: 4f1a\nWall time: 1.2 seconds\nProcess exited with code " + strconv.Itoa(exit) +
			"\nOriginal token count: 40\nOutput:\n" + out})
}

// edit is a Claude Code Edit call and its result.
func (b *builder) edit(path string) *builder {
	full := b.s.Cwd + "/" + path
	b.part(memory.Part{Role: memory.RoleAssistant, Kind: memory.KindToolCall, Tool: "Edit",
		Text: "file_path: " + full + "\nold_string: a\nnew_string: b"})
	b.part(memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Tool: "Edit",
		Text: "The file " + full + " has been updated."})
	return b.event("edited_file", path, "file")
}

// patch is a Codex apply_patch call.
func (b *builder) patch(path string) *builder {
	b.part(memory.Part{Role: memory.RoleAssistant, Kind: memory.KindToolCall, Tool: "apply_patch",
		Text: "*** Begin Patch\n*** Update File: " + b.s.Cwd + "/" + path + "\n@@\n-a\n+b\n*** End Patch"})
	b.part(memory.Part{Role: memory.RoleTool, Kind: memory.KindToolResult, Tool: "apply_patch",
		Text: "Success. Updated the following files:\nM " + path})
	return b.event("edited_file", path, "file")
}

func (b *builder) evidence() memory.Evidence {
	t := b.turn()
	return memory.Evidence{SessionID: b.s.ID, SessionRef: b.s.ExternalID, TurnID: t.ID, TurnSeq: t.Seq, PartSeq: b.last, Source: "tool"}
}

// event records a tool rule's event at the last part.
func (b *builder) event(pred, obj, category string) *builder {
	b.stmts = append(b.stmts, memory.Statement{
		ID: b.nextID, Account: memory.LocalAccount, Kind: memory.KindEvent, Subject: lastElem(b.s.Cwd), Predicate: pred,
		Object: obj, Class: memory.ClassTask, Category: category, Cardinality: memory.Many, Tier: memory.TierObserved,
		Writer: memory.WriterTool, Scope: b.s.Place.ScopeAt(memory.RungWorktree), Confidence: 1,
		ValidAt: b.clock, CreatedAt: b.clock, Evidence: []memory.Evidence{b.evidence()},
	})
	b.nextID++
	return b
}

// note records the user's own words as a note at the current turn.
func (b *builder) note(class memory.Class, rung memory.Rung, words string) *builder {
	ev := b.evidence()
	ev.PartSeq, ev.Source, ev.Quote = 0, "turn", words
	b.stmts = append(b.stmts, memory.Statement{
		ID: b.nextID, Account: memory.LocalAccount, Kind: memory.KindNote, Object: words, Class: class,
		Cardinality: memory.Many, Tier: memory.TierAsserted, Writer: memory.WriterUser,
		Scope: b.s.Place.ScopeAt(rung), Confidence: 0.75, ValidAt: b.clock, CreatedAt: b.clock,
		Evidence: []memory.Evidence{ev},
	})
	b.nextID++
	return b
}

// fact records a one-value fact the user stated.
func (b *builder) fact(pred, obj, words string) *builder {
	ev := b.evidence()
	ev.PartSeq, ev.Source, ev.Quote = 0, "turn", words
	b.stmts = append(b.stmts, memory.Statement{
		ID: b.nextID, Account: memory.LocalAccount, Kind: memory.KindFact, Subject: lastElem(b.s.Cwd), Predicate: pred,
		Object: obj, Class: memory.ClassEnvironment, Cardinality: memory.One, Tier: memory.TierAsserted,
		Writer: memory.WriterUser, Scope: b.s.Place.ScopeAt(memory.RungProject), Confidence: 0.8,
		ValidAt: b.clock, CreatedAt: b.clock, Evidence: []memory.Evidence{ev},
	})
	b.nextID++
	return b
}

// episodes summarizes each turn as capture's episode rule would.
func (b *builder) episodes() []memory.Episode {
	var out []memory.Episode
	for _, t := range b.s.Turns {
		out = append(out, memory.Episode{
			ID: t.ID, SessionID: b.s.ID, SessionRef: b.s.ExternalID, TurnID: t.ID, TurnSeq: t.Seq, TurnKey: t.Key,
			Place: b.s.Place, Request: t.Request, Outcome: t.Outcome, Summary: t.Request + " → " + t.Outcome,
			Status: t.Status, At: t.EndedAt, Confidence: 1,
		})
	}
	return out
}

func (b *builder) input(version string) ExtractInput {
	b.s.EndedAt = b.clock
	return ExtractInput{Session: b.s, Episodes: b.episodes(), Statements: b.stmts, Version: version}
}

var day0 = time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)

// flakyRank is the realistic session: a flaky test, a failing run, the
// assistant's reading, an edit, a passing run, then vet, test and commit.
func flakyRank() *builder {
	b := session(1, "7c1e2a90-rank", memory.ProviderClaudeCode, cairnPlace, day0, 101)
	b.ask("The rank tests are flaky: TestFuse fails about one run in five. Please fix it. Always run go test ./... before you commit.").
		note(memory.ClassPreference, memory.RungEverywhere, "Always run go test ./... before you commit.").
		say("Let me reproduce the failure first.").
		bash("go test ./internal/rank/... -count=5", "--- FAIL: TestFuse (0.00s)\n    fuse_test.go:42: got [b a], want [a b]\nFAIL\nFAIL\tgithub.com/ana/cairn/internal/rank\t0.012s", 1).
		event("tool_error", "Bash: --- FAIL: TestFuse (0.00s)", "command").
		say("The failure comes from map iteration order in fuse.go: ties between equal scores are not broken deterministically. I'll break ties by id.").
		edit("internal/rank/fuse.go").
		bash("go test ./internal/rank/... -count=5", "ok  \tgithub.com/ana/cairn/internal/rank\t0.051s", 0).
		answer("Fixed: ties in fusion are now broken by id, and TestFuse passes five runs in a row.")
	b.ask("Looks good, commit it.").
		bash("go vet ./...", "", 0).
		bash("go test ./...", "ok  \tgithub.com/ana/cairn/internal/rank\t0.050s\nok  \tgithub.com/ana/cairn/internal/text\t0.210s", 0).
		bash("git add -A && git commit -m 'rank: break fusion ties by id'", "[main 4f2a9c1] rank: break fusion ties by id\n 1 file changed, 3 insertions(+), 1 deletion(-)", 0).
		event("committed", "4f2a9c1 rank: break fusion ties by id", "git").
		event("current_branch", "main", "branch").
		answer("Committed 4f2a9c1 on main after go vet and go test passed.")
	return b
}

// smallTalk teaches nothing.
func smallTalk() *builder {
	b := session(9, "smalltalk-01", memory.ProviderClaudeCode, cairnPlace, day0.Add(3*time.Hour), 901)
	b.ask("hi, how are you today?").answer("Doing well, thanks! What are we working on?")
	b.ask("Nothing yet. What's the capital of Australia, by the way?").answer("Canberra.")
	return b
}

// corpus is six sessions across two places: cairn (three) and shop
// (three). Two cairn sessions share go vet → go test → commit; the other
// procedures happen once.
func corpus() []*builder {
	a := flakyRank()

	b := session(2, "019a-codex-json", memory.ProviderCodex, cairnPlace, day0.Add(48*time.Hour), 111)
	b.ask("Add a --json flag to cairn sessions. Keep commit messages in the form `area: summary`. Always run go test ./... before you commit.").
		note(memory.ClassConvention, memory.RungRepo, "Keep commit messages in the form `area: summary`.").
		note(memory.ClassPreference, memory.RungEverywhere, "Always run go test ./... before you commit.").
		patch("internal/cli/sessions.go").
		exec("go vet ./...", "", 0).
		exec("go test ./...", "ok  \tgithub.com/ana/cairn/internal/cli\t0.300s", 0).
		exec("git add -A && git commit -m 'cli: add --json to sessions'", "[main 8d3e4f5] cli: add --json to sessions\n 1 file changed, 20 insertions(+)", 0).
		event("committed", "8d3e4f5 cli: add --json to sessions", "git").
		answer("Added --json to cairn sessions and committed 8d3e4f5.")

	c := session(3, "5b2f-yaml", memory.ProviderClaudeCode, cairnPlace, day0.Add(96*time.Hour), 121)
	c.ask("go build fails after I added the toml dependency. We decided to keep config in TOML, not YAML.").
		note(memory.ClassDecision, memory.RungProject, "We decided to keep config in TOML, not YAML.").
		bash("go build ./...", "go: updates to go.mod needed; to update it:\n\tgo mod tidy", 1).
		event("tool_error", "Bash: go: updates to go.mod needed; to update it:", "command").
		say("go.mod is missing the new requirement; go mod tidy will add it.").
		bash("go mod tidy", "go: finding module for package github.com/BurntSushi/toml", 0).
		edit("go.mod").
		bash("go build ./...", "", 0).
		answer("go build works again after go mod tidy added the toml requirement.")

	d := session(4, "c0ffee-cart", memory.ProviderClaudeCode, shopPlace, day0.Add(120*time.Hour), 131)
	d.ask("The checkout total test fails since the discount change, fix it. We use pnpm for everything in this monorepo. Our deploy target is now Render, Oregon region.").
		note(memory.ClassConvention, memory.RungRepo, "We use pnpm for everything in this monorepo.").
		fact("deploy_target", "Render, Oregon region", "Our deploy target is now Render, Oregon region.").
		bash("pnpm test", "FAIL src/cart/total.test.ts\n  ● applies the discount once\n    expected 90, received 81", 1).
		event("tool_error", "Bash: FAIL src/cart/total.test.ts", "command").
		say("The discount is applied twice: once in applyCoupons and again in total. I'll remove the second one.").
		edit("src/cart/total.ts").
		bash("pnpm test", "PASS src/cart/total.test.ts\nTests: 14 passed, 14 total", 0).
		bash("git add -A && git commit -m 'cart: apply discount once'", "[main 9b1c2d3] cart: apply discount once\n 1 file changed, 1 deletion(-)", 0).
		event("committed", "9b1c2d3 cart: apply discount once", "git").
		answer("The discount is applied once now; pnpm test passes and the fix is committed as 9b1c2d3.")

	e := session(5, "019b-codex-codegen", memory.ProviderCodex, shopPlace, day0.Add(144*time.Hour), 141)
	e.ask("Regenerate the API client from the new OpenAPI spec.").
		exec("pnpm run codegen", "generated src/api/client.ts", 0).
		event("edited_file", "src/api/client.ts", "file").
		exec("git add -A && git commit -m 'api: regenerate client'", "[main 1a2b3c4] api: regenerate client\n 1 file changed", 0).
		event("committed", "1a2b3c4 api: regenerate client", "git").
		answer("Regenerated src/api/client.ts and committed 1a2b3c4.")

	f := session(6, "e5e5-nvmrc", memory.ProviderClaudeCode, shopPlace, day0.Add(168*time.Hour), 151)
	f.ask("Bump Node to 22 in .nvmrc and the CI workflow. Please keep answers short.").
		note(memory.ClassPreference, memory.RungEverywhere, "Please keep answers short.").
		edit(".nvmrc").
		edit(".github/workflows/ci.yml").
		bash("pnpm install", "Lockfile is up to date", 0).
		bash("pnpm run lint", "0 problems", 0).
		bash("git add -A && git commit -m 'ci: node 22'", "[main 7e7e7e7] ci: node 22\n 2 files changed", 0).
		event("committed", "7e7e7e7 ci: node 22", "git").
		answer("Done.")
	return []*builder{a, b, c, d, e, f}
}
