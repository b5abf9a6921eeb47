-- No search returns an inactive episode (capped, forgotten or expired),
-- yet the index kept their rows, so a project's search ranked every
-- episode it ever had and then dropped all but the few hundred active
-- ones (the cap keeps 300 a project). From now on the index holds active
-- episodes only: closing one removes its row, restoring one adds it back.
DELETE FROM episodes_fts WHERE rowid IN (
    SELECT ((COALESCE(p.id, 0) << 40) | e.id) FROM episodes e
    LEFT JOIN episode_places p ON p.account_id = e.account_id AND p.project = e.project AND p.repo = e.repo
    WHERE e.expired_at <> 0);
