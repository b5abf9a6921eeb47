-- A turn saved but not yet learned from: set when a save adds or changes
-- it, cleared once capture has run. A capture that failed (a busy store,
-- a killed process) is run again by the next save of the session, which
-- would otherwise find the turn unchanged and skip it for good.
ALTER TABLE turns ADD COLUMN pending_capture INTEGER NOT NULL DEFAULT 0;
