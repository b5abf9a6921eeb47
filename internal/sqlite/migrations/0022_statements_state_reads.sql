-- A standing block reads a place's current session-state facts and the
-- three that stopped being true most recently. Through the (account,
-- predicate, slot) index both meant reading every session-state row of
-- every place, closed ones included: 5,707 rows at 1M parts and 100k
-- statements, most of a standing block's time (BENCHMARKS.md, Recall
-- block). These indexes hold session-state facts only, so other writes
-- never touch them: the first the current rows with their place, matched
-- on its entries; the second the closed rows newest first, so a read stops
-- at the few it needs. The predicate list is the one the store writes into
-- these reads (sessionStateIn), word for word: SQLite uses a partial index
-- only for a query that repeats its condition.
CREATE INDEX statements_state_current ON statements (account_id, place_rung, place_key)
    WHERE expired_at = 0 AND invalid_at = 0
    AND predicate IN ('blocked_on', 'current_branch', 'current_task', 'current_ticket', 'decided', 'focus', 'next_step', 'plan', 'working_on');
CREATE INDEX statements_state_closed ON statements (account_id, invalid_at)
    WHERE invalid_at <> 0
    AND predicate IN ('blocked_on', 'current_branch', 'current_task', 'current_ticket', 'decided', 'focus', 'next_step', 'plan', 'working_on');
