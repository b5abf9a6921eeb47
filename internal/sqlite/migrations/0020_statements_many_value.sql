-- The write point looks for an exact copy of a new value among the current
-- rows of a many-value slot (events, collections). Through the slot index
-- that read every row of the slot, closed ones too: an import's capture
-- writes thousands of events into a few dozen slots (up to 535 rows
-- each), and the lookup was 12% of its CPU (BENCHMARKS.md, Import). This
-- index finds the copy with one seek. It holds current many-value facts
-- and events only, so one-value writes and notes pay nothing for it; the
-- value's first 100 bytes bound its entries whatever a value's length.
CREATE INDEX statements_many_value ON statements (account_id, slot, substr(object, 1, 100))
    WHERE cardinality = 'many' AND kind <> 'note' AND expired_at = 0 AND invalid_at = 0;
