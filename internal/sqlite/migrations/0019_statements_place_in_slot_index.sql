-- The standing block reads a place's session state (decided, working_on,
-- …) by predicate, and keeps the rows in sight of the place. Through
-- (account_id, predicate, slot) every row of those predicates in every
-- place was read to look at its place: at 1M parts, 5,707 rows to keep
-- 1,624, most of a session start's time. With the place in the index the
-- sight filter is decided on index entries and only rows in sight are
-- read (3× less in the sqlite3 shell on that store). The write point's
-- slot lookups use the same prefix as before; an entry grows by the place.
DROP INDEX statements_predicate_slot;
CREATE INDEX statements_predicate_slot ON statements (account_id, predicate, slot, place_rung, place_key);
