package model

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/memory"
)

// Bounds of an extraction.
const (
	maxKeywords  = 8
	maxSlugRunes = 60
	maxLines     = 12   // lines per raw-memory section
	maxLineRunes = 400  // runes per raw-memory line
	maxRecap     = 6000 // runes of a V2 recap
	maxRecapV1   = 20000
)

// Extractor is phase 1 with a model: tool-less, the sanitized transcript
// inline as data, a JSON answer checked against the schema and retried
// once when it is not valid. It implements engine.SessionExtractor.
type Extractor struct {
	Chat  Chat
	Model string // recorded on each extraction
}

// extractAnswer is the decoded answer.
type extractAnswer struct {
	WorthKeeping bool     `json:"worth_keeping"`
	Slug         string   `json:"slug"`
	Task         string   `json:"task"`
	TaskGroup    string   `json:"task_group"`
	Outcome      string   `json:"outcome"`
	Tasks        []task   `json:"tasks"`
	Keywords     []string `json:"keywords"`
	Prefs        []line   `json:"preference_signals"`
	Knowledge    []line   `json:"knowledge"`
	Shields      []line   `json:"failure_shields"`
	Summary      string   `json:"rollout_summary"`
}

type task struct {
	Task     string `json:"task"`
	Outcome  string `json:"outcome"`
	Evidence string `json:"evidence"`
}

type line struct {
	Text       string  `json:"text"`
	Statements []int64 `json:"statements"`
}

// ExtractSession asks the model about one session.
func (x Extractor) ExtractSession(ctx context.Context, in distill.ExtractInput) (memory.Extraction, error) {
	s := in.Session
	version := distill.V1
	system := extractSystem
	if in.Version == distill.V2 {
		version, system = distill.V2, extractSystemV2
	}
	known := map[int64]bool{}
	for _, st := range in.Statements {
		known[st.ID] = true
	}
	req := Request{System: system, Output: extractSchema(), MaxTokens: 4096,
		Messages: []Message{{Role: RoleUser, Text: extractMessage(in)}}}
	var ans extractAnswer
	err := askJSON(ctx, x.Chat, req, &ans, func() error { return ans.check() })
	if err != nil {
		return memory.Extraction{}, err
	}
	out := memory.Extraction{SessionID: s.ID, SessionRef: s.ExternalID, Provider: s.Provider, Place: s.Place,
		Version: version, Model: x.Model, SessionAt: s.EndedAt}
	if !ans.WorthKeeping {
		out.Empty = true
		return out, nil
	}
	out.Task = oneLine(ans.Task, 200)
	out.TaskGroup = oneLine(ans.TaskGroup, 100)
	out.Outcome = memory.Outcome(ans.Outcome)
	for _, k := range ans.Keywords {
		if k = oneLine(k, 60); k != "" && !slices.Contains(out.Keywords, k) && len(out.Keywords) < maxKeywords {
			out.Keywords = append(out.Keywords, k)
		}
	}
	out.Slug = recapSlug(s, ans.Slug)
	rests := map[int64]bool{}
	keep := func(ls []line) []line {
		var kept []line
		for _, l := range ls {
			l.Text = clean(oneLine(l.Text, maxLineRunes), 0)
			if l.Text == "" || len(kept) == maxLines {
				continue
			}
			// A number the model made up is dropped: provenance names
			// only rows that exist.
			l.Statements = slices.DeleteFunc(slices.Clone(l.Statements), func(id int64) bool { return !known[id] })
			for _, id := range l.Statements {
				rests[id] = true
			}
			kept = append(kept, l)
		}
		return kept
	}
	prefs, knowledge, shields := keep(ans.Prefs), keep(ans.Knowledge), keep(ans.Shields)
	for id := range rests {
		out.Statements = append(out.Statements, id)
	}
	slices.Sort(out.Statements)
	recap := clean(ans.Summary, maxRecapV1)
	if version == distill.V2 {
		recap = clean(ans.Summary, maxRecap)
	} else {
		out.RawMemory = renderRaw(s, out, ans.Tasks, prefs, knowledge, shields)
	}
	out.Summary = recapHeader(s, out) + recap + "\n"
	return out, nil
}

// check is the schema's rules that JSON decoding alone does not enforce.
func (a *extractAnswer) check() error {
	if !a.WorthKeeping {
		return nil
	}
	if !validOutcome(a.Outcome) {
		return Invalid(fmt.Sprintf("outcome %q is not success, partial, failure or uncertain", a.Outcome))
	}
	for _, t := range a.Tasks {
		if !validOutcome(t.Outcome) {
			return Invalid(fmt.Sprintf("task %q has outcome %q, not success, partial, failure or uncertain", cut(t.Task, 60), t.Outcome))
		}
	}
	if slugWords(a.Slug) == "" {
		return Invalid("slug is empty")
	}
	if strings.TrimSpace(a.Task) == "" {
		return Invalid("task is empty")
	}
	if strings.TrimSpace(a.Summary) == "" {
		return Invalid("rollout_summary is empty")
	}
	return nil
}

func validOutcome(o string) bool {
	switch memory.Outcome(o) {
	case memory.OutcomeSuccess, memory.OutcomePartial, memory.OutcomeFailure, memory.OutcomeUncertain:
		return true
	}
	return false
}

// extractMessage is the user message: the session's labels, the
// statements it may cite, and the transcript, fenced as data.
func extractMessage(in distill.ExtractInput) string {
	s := in.Session
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s from %s", s.ExternalID, s.Provider)
	if s.Cwd != "" {
		fmt.Fprintf(&b, ", working directory %s", clean(s.Cwd, 200))
	}
	if s.Branch != "" {
		fmt.Fprintf(&b, ", branch %s", clean(s.Branch, 100))
	}
	if !s.EndedAt.IsZero() {
		fmt.Fprintf(&b, ", ended %s", s.EndedAt.UTC().Format("2006-01-02 15:04 UTC"))
	}
	b.WriteString(".\n\n")
	var st strings.Builder
	for _, x := range in.Statements {
		if x.Tier == memory.TierNone {
			continue // never sent to a model
		}
		fmt.Fprintf(&st, "%d. [%s, %s] %s\n", x.ID, x.Kind, x.Tier, clean(statementText(x), 300))
	}
	if st.Len() > 0 {
		b.WriteString(fence("statements", st.String()))
		b.WriteString("\n")
	}
	b.WriteString(fence("transcript", renderTranscript(s)))
	b.WriteString("\nAnswer with the JSON object only.")
	return b.String()
}

// statementText renders a statement as one line.
func statementText(s memory.Statement) string {
	if s.Kind == memory.KindNote || s.Subject == "" && s.Predicate == "" {
		return s.Object
	}
	return s.Subject + " " + s.Predicate + " " + s.Object
}

// askJSON sends req, decodes the answer into v and checks it; an invalid
// answer is shown back to the model once with what was wrong. A refusal
// is not retried: asking again would not change it.
func askJSON(ctx context.Context, c Chat, req Request, v any, check func() error) error {
	var last error
	for attempt := range 2 {
		resp, err := c.Complete(ctx, req)
		if err != nil {
			return err
		}
		if resp.Stop == StopRefusal {
			return Refused("model", cut(resp.Text, 200))
		}
		err = decodeObject(resp.Text, v)
		if err == nil {
			err = check()
		}
		if err == nil {
			return nil
		}
		last = err
		if attempt == 0 {
			req.Messages = append(slices.Clone(req.Messages),
				Message{Role: RoleAssistant, Text: resp.Text},
				Message{Role: RoleUser, Text: "That answer is not valid: " + memory.ErrorMessage(err) +
					". Answer again with only the JSON object, following the schema."})
		}
	}
	if !errors.Is(last, ErrInvalidOutput) {
		return last
	}
	return &memory.Error{Code: memory.CodeUnavailable, Message: memory.ErrorMessage(last) + " (after one retry)", Err: last}
}

// oneLine collapses whitespace and cuts to max runes.
func oneLine(s string, max int) string {
	return cut(strings.Join(strings.Fields(s), " "), max)
}

// slugWords keeps lowercase letters, digits and single hyphens.
func slugWords(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	return b.String()
}

// recapSlug is the recap's file name: the session's date, the model's
// words and a short hash of the session, so two sessions never share one.
func recapSlug(s memory.Session, words string) string {
	w := slugWords(words)
	if r := []rune(w); len(r) > maxSlugRunes-18 {
		w = strings.Trim(string(r[:maxSlugRunes-18]), "-")
	}
	sum := sha256.Sum256([]byte(string(s.Provider) + "/" + s.ExternalID))
	date := "undated"
	if !s.EndedAt.IsZero() {
		date = s.EndedAt.UTC().Format("2006-01-02")
	}
	return date + "-" + w + "-" + hex.EncodeToString(sum[:3])
}

// recapHeader starts the recap with what it is about.
func recapHeader(s memory.Session, x memory.Extraction) string {
	when := ""
	if !s.EndedAt.IsZero() {
		when = ", " + s.EndedAt.UTC().Format("2006-01-02")
	}
	return fmt.Sprintf("# %s\n\n_Session %s (%s%s); outcome: %s._\n\n", x.Task, s.ExternalID, s.Provider, when, x.Outcome)
}

// renderRaw writes the raw memory in the shape distill reads: frontmatter,
// then the sections, every line anchored to its statements or, resting on
// none, to a key of its text.
func renderRaw(s memory.Session, x memory.Extraction, tasks []task, prefs, knowledge, shields []line) string {
	var b strings.Builder
	q := strconv.Quote
	b.WriteString("---\n")
	b.WriteString("session: " + q(s.ExternalID) + "\n")
	b.WriteString("provider: " + q(string(s.Provider)) + "\n")
	b.WriteString("task: " + q(x.Task) + "\n")
	b.WriteString("task_group: " + q(x.TaskGroup) + "\n")
	b.WriteString("outcome: " + string(x.Outcome) + "\n")
	cwd := s.Cwd
	if cwd == "" {
		cwd = s.Place.Worktree
	}
	b.WriteString("cwd: " + q(cwd) + "\n")
	ks := make([]string, len(x.Keywords))
	for i, k := range x.Keywords {
		ks[i] = q(k)
	}
	b.WriteString("keywords: [" + strings.Join(ks, ", ") + "]\n")
	b.WriteString("---\n")
	section := func(name string, ls []line) {
		if len(ls) == 0 {
			return
		}
		b.WriteString("\n## " + name + "\n")
		for _, l := range ls {
			a := distill.Anchor{IDs: l.Statements}
			if len(a.IDs) == 0 {
				a.Keys = []string{textKey(l.Text)}
			}
			b.WriteString("- " + l.Text + " " + a.String() + "\n")
		}
	}
	section("Preference signals", prefs)
	section("Reusable knowledge", knowledge)
	section("Failure shields", shields)
	if len(tasks) > 1 {
		b.WriteString("\n## Tasks\n")
		for _, t := range tasks {
			fmt.Fprintf(&b, "- %s: %s (%s)\n", oneLine(clean(t.Task, 0), 200), t.Outcome, oneLine(clean(t.Evidence, 0), 200))
		}
	}
	return b.String()
}

// textKey keys a line that rests on no statement by its words.
func textKey(text string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.Join(strings.Fields(text), " "))))
	return hex.EncodeToString(sum[:4])
}
