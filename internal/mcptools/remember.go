package mcptools

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const maxRememberChars = 2000

const rememberDescription = `Remember a note or a fact for later sessions. Use it only for something durable the user stated or that you saw happen: a preference, a convention, a decision and its reason, a fact about their setup. Not for what the repository already says, and never for secrets (credentials are refused).
The write is pending until the turn ends: it takes effect when this turn completes normally and is dropped if the turn is refused.
kind note (default) takes just text. kind fact takes subject, predicate and object (a one-value slot: a new value replaces the old, e.g. production / deploy_target / "Render, Oregon"); kind event accumulates.
Declare tier: asserted for the user's own words (this server cannot see the user's message, so it is stored as inferred), observed for what you saw happen (a command's result), inferred for your own conclusion. With no tier the row is kept but never shown to a model.`

// RememberInput is memory_remember's arguments.
type RememberInput struct {
	Text      string `json:"text" jsonschema:"the note in a sentence, or for a fact the statement in words (used as the value when object is empty)"`
	Kind      string `json:"kind,omitempty" jsonschema:"note (default), fact (one current value per subject and predicate) or event (accumulates)"`
	Subject   string `json:"subject,omitempty" jsonschema:"for a fact or event: what it is about, e.g. production"`
	Predicate string `json:"predicate,omitempty" jsonschema:"for a fact or event: the attribute, e.g. deploy_target"`
	Object    string `json:"object,omitempty" jsonschema:"for a fact or event: the value, e.g. Render, Oregon"`
	Category  string `json:"category,omitempty" jsonschema:"a short topic, e.g. testing, git, style, port"`
	Class     string `json:"class,omitempty" jsonschema:"what it is about, which sets where it applies: user and preference everywhere, convention the repo, decision and environment the project, task this worktree"`
	Tier      string `json:"tier,omitempty" jsonschema:"asserted (the user's words; stored as inferred here), observed (you saw it happen) or inferred (your conclusion); leave out to keep it from every model"`
	Cwd       string `json:"cwd,omitempty" jsonschema:"absolute path of the directory it is about (default: the project the client runs in)"`
}

// RememberOutput is memory_remember's result.
type RememberOutput struct {
	PendingID int64  `json:"pending_id" jsonschema:"the pending write's id"`
	Status    string `json:"status" jsonschema:"pending: applied when the turn ends normally, dropped if it is refused"`
	Kind      string `json:"kind"`
	Tier      string `json:"tier" jsonschema:"the tier it will be stored with; none means never shown to a model"`
}

func (s *server) remember(ctx context.Context, req *mcp.CallToolRequest, in RememberInput) (string, RememberOutput, error) {
	w, err := s.rememberWrite(in)
	if err != nil {
		return "", RememberOutput{}, err
	}
	if w.Cwd, err = s.dir(ctx, req, in.Cwd); err != nil {
		return "", RememberOutput{}, err
	}
	id, err := s.eng.RememberLater(ctx, w)
	if err != nil {
		return "", RememberOutput{}, err
	}
	// The tier the write point will give it: the server never sees the
	// user's message, so a claim of asserted cannot be checked and drops.
	tier := temporal.ResolveTier(temporal.TierRequest{Writer: w.Writer, Declared: w.Tier, DeclaredSet: w.TierSet, Value: w.Draft.Object})
	out := RememberOutput{PendingID: id, Status: "pending", Kind: string(w.Draft.Kind), Tier: nonEmpty(string(tier), "none")}
	var b strings.Builder
	fmt.Fprintf(&b, "Pending until the turn ends: the %s takes effect when this turn completes normally and is dropped if the turn is refused (pending write %d).\n", out.Kind, id)
	switch {
	case tier == memory.TierNone:
		b.WriteString("No tier was declared, so it will be kept but never shown to a model.\n")
	case w.Tier == memory.TierAsserted && tier != memory.TierAsserted:
		fmt.Fprintf(&b, "It will be stored as %s: this server cannot see the user's message to confirm their words.\n", tier)
	default:
		fmt.Fprintf(&b, "It will be stored as %s.\n", tier)
	}
	return b.String(), out, nil
}

// rememberWrite checks the arguments and builds the write; the engine's
// write point applies the rest of the rules (credentials, places, slots).
func (s *server) rememberWrite(in RememberInput) (engine.Write, error) {
	text := strings.TrimSpace(in.Text)
	if text == "" {
		return engine.Write{}, invalidf("text is empty: say what to remember in a sentence")
	}
	if n := len([]rune(text)); n > maxRememberChars {
		return engine.Write{}, invalidf("text is %d characters: keep a memory under %d, the durable point only", n, maxRememberChars)
	}
	d := memory.Draft{Kind: memory.KindNote, Object: text, Category: strings.TrimSpace(in.Category), Evidence: memory.Evidence{Source: "mcp"}}
	switch in.Kind {
	case "", "note":
		if in.Subject != "" || in.Predicate != "" || in.Object != "" {
			return engine.Write{}, invalidf("subject, predicate and object are for kind fact or event; for a note give text only")
		}
	case "fact", "event":
		d.Kind = memory.Kind(in.Kind)
		d.Subject, d.Predicate = strings.TrimSpace(in.Subject), strings.TrimSpace(in.Predicate)
		if d.Subject == "" || d.Predicate == "" {
			return engine.Write{}, invalidf("a %s needs subject and predicate, e.g. subject production, predicate deploy_target, object \"Render, Oregon\"", in.Kind)
		}
		if o := strings.TrimSpace(in.Object); o != "" {
			d.Object = o
			d.Evidence.Quote = text
		}
		if n := len([]rune(d.Object)); n > maxRememberChars {
			return engine.Write{}, invalidf("object is %d characters: keep a value under %d", n, maxRememberChars)
		}
	default:
		return engine.Write{}, invalidf("unknown kind %q: use note, fact or event", clip(in.Kind, 40))
	}
	if in.Class != "" {
		ok := false
		for _, c := range memory.Classes {
			ok = ok || string(c) == in.Class
		}
		if !ok {
			return engine.Write{}, invalidf("unknown class %q: use user, preference, convention, decision, environment or task", clip(in.Class, 40))
		}
		d.Class = memory.Class(in.Class)
	}
	w := engine.Write{Draft: d, Writer: memory.WriterAgent}
	switch in.Tier {
	case "":
	case "asserted", "observed", "inferred":
		w.Tier, w.TierSet = memory.Tier(in.Tier), true
	default:
		return engine.Write{}, invalidf("unknown tier %q: use asserted, observed or inferred, or leave it out", clip(in.Tier, 40))
	}
	return w, nil
}
