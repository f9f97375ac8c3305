-- Stage 1: the scratch warehouse's run and sources for one rank db (rolled back after it): the rank
-- db as the input answering its rank's kernels and timeline (kind rank_db, fact_precedence), and
-- the classification groups as a source no fact names (so no answer reads them).
-- Parameters :path, :rank_id, :source_id, :group_source.
INSERT INTO run (run_id, name, root, created_at) VALUES (1, 'staged', :path, '');

INSERT INTO source (id, path, kind, sha256, size_bytes, rank_id, status, ingested_at, run_id)
VALUES
    (:source_id, :path, 'rank_db', '', 0, :rank_id, 'ok', '', 1),
    (:group_source, :path, 'staged_kernel_groups', '', 0, NULL, 'ok', '', 1);
