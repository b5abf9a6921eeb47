package mcptools

import (
	"context"
	"fmt"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const forgetDescription = `Forget a note (n12), a fact (f3) or an earlier turn (e4) that is wrong or no longer wanted: it stops being recalled or shown to agents. Forgetting only deactivates the row; nothing is ever deleted, and a person can bring it back with cairn undo. Raw transcript parts (p123) and the profile (l1) cannot be forgotten from here. Use it when the user asks, or when a memory is plainly wrong; to change a fact's value, remember the new value instead.`

// ForgetInput is memory_forget's arguments.
type ForgetInput struct {
	Ref string `json:"ref" jsonschema:"the ref to forget: n12, f3 or e4"`
}

// ForgetOutput is memory_forget's result.
type ForgetOutput struct {
	Ref   string `json:"ref"`
	Kind  string `json:"kind"`
	State string `json:"state" jsonschema:"forgotten: deactivated, not deleted; a person can undo it"`
}

func (s *server) forget(ctx context.Context, _ *mcp.CallToolRequest, in ForgetInput) (string, ForgetOutput, error) {
	r, err := parseRef(in.Ref)
	if err != nil {
		return "", ForgetOutput{}, err
	}
	out := ForgetOutput{Ref: r.String(), Kind: kindOf(r), State: "forgotten"}
	switch r.Kind {
	case 'p':
		return "", out, invalidf("%s is a raw transcript part: raw transcripts are the record of what happened and cannot be forgotten by an agent; forget the note, fact or episode (e4) derived from it instead", r)
	case 'l':
		return "", out, invalidf("%s is the profile, built from the user's notes: it cannot be forgotten itself; forget the notes it rests on (memory_read %s lists them) and it is rebuilt without them", r, r)
	case 'n', 'f':
		st, err := s.eng.Statement(ctx, r.ID)
		if err != nil {
			return "", out, err
		}
		if st.Tier == memory.TierNone {
			return "", out, notFoundf("%s is kept without a tier, which agents never see", r)
		}
		out.Ref, out.Kind = statementRef(st).String(), string(st.Kind)
		if st.Reason == memory.ReasonForgotten {
			return fmt.Sprintf("%s was already forgotten.\n", out.Ref), out, nil
		}
		if _, err := s.eng.Forget(ctx, engine.Ref{ID: st.ID}); err != nil {
			return "", out, err
		}
	case 'e':
		ep, err := s.eng.Episode(ctx, r.ID)
		if err != nil {
			return "", out, err
		}
		out.Kind = "episode"
		if ep.Reason == memory.ReasonForgotten {
			return fmt.Sprintf("%s was already forgotten.\n", r), out, nil
		}
		if _, err := s.eng.Forget(ctx, engine.Ref{Episode: true, ID: ep.ID}); err != nil {
			return "", out, err
		}
	}
	return fmt.Sprintf("Forgot %s: it is deactivated and no longer recalled or shown to agents. Nothing was deleted; a person can restore it with `cairn undo %s`.\n", out.Ref, out.Ref), out, nil
}
