-- The engine's TermStats now names the account, so the raw layer's term
-- statistics are the account's own, read under row-level security like
-- every other query. The two owner functions that counted across accounts
-- are dropped: the application role has no cross-account count left but
-- Health's row counts.
DROP FUNCTION cairn_term_stats(text[], tsquery[], bigint, bigint);
DROP FUNCTION cairn_layer_docs(text);
