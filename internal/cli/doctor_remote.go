package cli

import (
	"context"
	"fmt"

	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/remote"
)

// GatewayStatus is what doctor found of the gateway in remote mode.
type GatewayStatus struct {
	URL string `json:"url"`
	gateway.Health
}

// checkGateway asks the gateway for its health and the account and token
// the call was tied to; problems are added to problems.
func checkGateway(ctx context.Context, rc *remote.Client, url string, problems *[]string) *GatewayStatus {
	g := &GatewayStatus{URL: url}
	h, err := rc.Health(ctx)
	if err != nil {
		*problems = append(*problems, describe(err))
		return g
	}
	g.Health = h
	st := h.Store
	switch {
	case st.Integrity != "" && st.Integrity != "ok":
		*problems = append(*problems, fmt.Sprintf("the gateway's store failed its integrity check (%s): tell the gateway's operator", st.Integrity))
	case st.SchemaVersion != st.BinarySchema:
		*problems = append(*problems, fmt.Sprintf("the gateway's store has schema %d and the gateway expects %d: tell the gateway's operator", st.SchemaVersion, st.BinarySchema))
	}
	return g
}

func orNone(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}
