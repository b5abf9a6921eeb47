package opencode

import (
	"context"

	"github.com/cairn-memory/cairn/internal/memory"
)

// ExportJSON runs `opencode export <id>` and returns the JSON it prints,
// unparsed: what a remote client uploads to its gateway.
func ExportJSON(ctx context.Context, opencodeBin, id string) ([]byte, error) {
	if !validID(id) {
		return nil, memory.Errorf(memory.CodeInvalid, "%q is not an OpenCode session id", id)
	}
	out, err := runCLI(ctx, opencodeBin, "", "export", id)
	if err != nil {
		return nil, err
	}
	return skipBanner(out), nil
}
