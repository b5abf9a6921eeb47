-- A turn saved but not yet learned from: set when a save adds or changes
-- it, cleared once capture has run, so a capture that failed is run again
-- by the next save of the session.
ALTER TABLE turns ADD COLUMN pending_capture SMALLINT NOT NULL DEFAULT 0;
