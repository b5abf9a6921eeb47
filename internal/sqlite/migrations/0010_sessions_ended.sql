-- Phase 1 looks for sessions by when they ended, across places: the
-- hook's "is background work due" check must not scan every session.
CREATE INDEX sessions_ended ON sessions (account_id, ended_at);
