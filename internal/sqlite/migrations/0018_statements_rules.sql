-- The rules a session starts with (pinned notes, asserted preferences and
-- conventions), in the order the block shows them, with the place columns
-- the sight filter reads: a session's start reads a dozen entries instead
-- of every current note.
CREATE INDEX statements_rules ON statements (account_id, pinned DESC, confidence DESC, id, place_rung, place_key)
    WHERE kind = 'note' AND expired_at = 0 AND invalid_at = 0 AND tier <> ''
      AND (pinned = 1 OR (tier = 'asserted' AND class IN ('preference', 'convention')));
