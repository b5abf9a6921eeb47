package sqlite

import (
	"strings"

	"github.com/cairn-memory/cairn/internal/temporal"
)

// sessionStateIn is the session-state predicates as a literal SQL list,
// in the order migration 0022's partial indexes name them: a read that
// repeats the list word for word may use those indexes (SQLite finds a
// partial index's condition among the query's own terms; a bound
// parameter proves nothing). The names hold no quote.
var sessionStateIn = "('" + strings.Join(temporal.SessionStatePredicates(), "', '") + "')"
