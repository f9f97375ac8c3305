-- description: Inputs that are another input's twin: one capture exported twice into one run's
--     rank (a CANN msprof_N.db beside its older-named report_N.db), told by the same capture
--     digest (run_metadata captureDigest: the session's times and the first and last device
--     tasks). One of them answers (the one that stored the most rows, then the first ingested);
--     the twin stays stored and visible and answers no fact (answer_source), so a kernel is
--     counted once.
-- column run_id: Run of the two inputs.
-- column rank_id: Rank of the two inputs (-1 when unknown).
-- column source_id: The twin (source.id): it answers nothing.
-- column answered_by: The input of the same capture that answers in its place (source.id).
WITH captured AS (
    SELECT
        s.id,
        s.run_id,
        s.rank_id,
        first_value(s.id) OVER (
            PARTITION BY s.run_id, s.rank_id, s.kind, m.value ORDER BY s.row_count DESC, s.id
        ) AS answered_by
    FROM source AS s
    JOIN run_metadata AS m ON m.source_id = s.id AND m.name = 'captureDigest'
    WHERE s.status = 'ok'
)

SELECT run_id, rank_id, id AS source_id, answered_by
FROM captured
WHERE id != answered_by
