-- Where work left off in a worktree: the standing block reads the last
-- live episodes of one worktree, newest first. The project index made it
-- walk every episode of the project (18% of a standing block at 100k).
CREATE INDEX episodes_worktree ON episodes (account_id, worktree, at) WHERE expired_at = 0;

-- What changed lately: the rows superseded newest first, read by every
-- standing block (a scan of every statement without it).
CREATE INDEX statements_superseded ON statements (account_id, expired_at) WHERE reason = 'superseded';

-- Session state (decided, working_on …) is read by predicate for every
-- standing block: a scan of every statement without it (30 ms at 16k).
CREATE INDEX statements_predicate ON statements (account_id, predicate);
