-- A standing block reads a place's current session-state facts and the
-- three that stopped being true most recently. Through the (account,
-- predicate, slot) index both meant reading every session-state row of
-- every place, closed ones included: 5,707 rows at 1M parts and 100k
-- statements, for about 160 current ones in sight, most of a standing
-- block's time (BENCHMARKS.md, Recall block). The first index holds current
-- rows only, with their place, so the place is matched on the index; the
-- second walks closed rows newest first, so a read stops at the few it
-- needs.
CREATE INDEX statements_current_place ON statements (account_id, predicate, place_rung, place_key)
    WHERE expired_at = 0 AND invalid_at = 0;
CREATE INDEX statements_closed ON statements (account_id, invalid_at) WHERE invalid_at <> 0;
