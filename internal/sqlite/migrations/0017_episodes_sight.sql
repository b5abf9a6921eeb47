-- A search's episodes are filtered (account, place, state, session, time)
-- through this index, in the order of their ids, before any full row is
-- read: a matching episode's row holds its summary, request and outcome,
-- so reading each one cost a page read per match (72% of a request
-- block's time at 1M parts); the index holds about five times as many
-- episodes a page, and only the best rows are read whole.
CREATE INDEX episodes_sight ON episodes (id, account_id, expired_at, project, repo, session_id, at);
