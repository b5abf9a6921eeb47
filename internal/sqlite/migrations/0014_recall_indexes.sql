-- Where work left off in a worktree: the standing block reads the last
-- live episodes of one worktree, newest first. The project index made it
-- walk every episode of the project (18% of a standing block at 100k).
CREATE INDEX episodes_worktree ON episodes (account_id, worktree, at) WHERE expired_at = 0;
