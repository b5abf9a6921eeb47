-- Phase 1 reads a session's statements through their evidence and its
-- episodes; both lookups are by session.
CREATE INDEX evidence_session ON evidence (account_id, session_id);
CREATE INDEX episodes_session ON episodes (account_id, session_id, at);
