package postgres

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/temporal"
)

// sessionStateIn is the session-state predicates as a literal SQL list,
// as migration 0005's partial indexes name them: the planner proves a
// partial index applies from the query's own constants, never from a
// bound parameter. The names hold no quote.
var sessionStateIn = "('" + strings.Join(temporal.SessionStatePredicates(), "', '") + "')"
