-- One index fewer for every statement written. The write point looks a
-- slot up by predicate and slot (the slot holds the predicate), and the
-- standing block reads session state by predicate: one index on
-- (account_id, predicate, slot) serves both, where two indexes had each
-- cost every write a page (BENCHMARKS.md, Statements).
DROP INDEX statements_slot;
DROP INDEX statements_predicate;
CREATE INDEX statements_predicate_slot ON statements (account_id, predicate, slot);
