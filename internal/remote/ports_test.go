package remote

import (
	"github.com/cairn-memory/cairn/internal/hook"
	"github.com/cairn-memory/cairn/internal/mcptools"
)

// The client stands in for the local engine wherever these ports are
// consumed.
var (
	_ hook.Engine     = (*Client)(nil)
	_ mcptools.Engine = (*Client)(nil)
)
