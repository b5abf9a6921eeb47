-- A standing block reads a place's current session-state facts and the
-- three that stopped being true most recently (SQLite's migration 0022
-- has the figures). These indexes hold session-state facts only, so other
-- writes never touch them: current rows by place, and closed rows newest
-- first. The predicate list is the one the store writes into these reads
-- (sessionStateIn), so the planner can prove they apply.
CREATE INDEX statements_state_current ON statements (account_id, place_rung, place_key)
    WHERE expired_at = 0 AND invalid_at = 0
    AND predicate IN ('blocked_on', 'current_branch', 'current_task', 'current_ticket', 'decided', 'focus', 'next_step', 'plan', 'working_on');
CREATE INDEX statements_state_closed ON statements (account_id, invalid_at)
    WHERE invalid_at <> 0
    AND predicate IN ('blocked_on', 'current_branch', 'current_task', 'current_ticket', 'decided', 'focus', 'next_step', 'plan', 'working_on');
