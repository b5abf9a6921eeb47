-- Vectors of the optional semantic leg of search: one per row of a layer
-- (L0 part, L1 statement, L2 episode), with the model that made it and its
-- dimension. A row whose vector came from another model, or has another
-- dimension, is due again and is never searched with this model's
-- queries. A replacement (INSERT OR REPLACE) takes a new id, so an index
-- loaded in memory reads only the ids after the last it saw.
CREATE TABLE embeddings (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    layer      TEXT    NOT NULL,
    row_id     INTEGER NOT NULL,
    model      TEXT    NOT NULL,
    dim        INTEGER NOT NULL,
    vec        BLOB    NOT NULL, -- dim little-endian float32s
    created_at INTEGER NOT NULL,
    UNIQUE (layer, row_id)
);
CREATE INDEX embeddings_load ON embeddings (account_id, layer, model, id);

-- Deleting a row deletes its vector; each deletion of a vector bumps the
-- epoch, which tells a loaded index to read everything again.
CREATE TABLE embedding_epoch (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    deletions INTEGER NOT NULL
);
INSERT INTO embedding_epoch (id, deletions) VALUES (1, 0);

CREATE TRIGGER embeddings_deleted AFTER DELETE ON embeddings BEGIN
    UPDATE embedding_epoch SET deletions = deletions + 1 WHERE id = 1;
END;
CREATE TRIGGER parts_embedding_gone AFTER DELETE ON parts BEGIN
    DELETE FROM embeddings WHERE layer = 'L0' AND row_id = old.id;
END;
CREATE TRIGGER statements_embedding_gone AFTER DELETE ON statements BEGIN
    DELETE FROM embeddings WHERE layer = 'L1' AND row_id = old.id;
END;
CREATE TRIGGER episodes_embedding_gone AFTER DELETE ON episodes BEGIN
    DELETE FROM embeddings WHERE layer = 'L2' AND row_id = old.id;
END;
