-- A standing block reads a place's current session-state facts and the
-- three that stopped being true most recently (SQLite's migration 0022
-- has the figures): current rows by predicate and place, and closed rows
-- newest first, so neither read visits every session-state row.
CREATE INDEX statements_current_place ON statements (account_id, predicate, place_rung, place_key)
    WHERE expired_at = 0 AND invalid_at = 0;
CREATE INDEX statements_closed ON statements (account_id, invalid_at) WHERE invalid_at <> 0;
