-- Every source is in a state an ingest leaves it in, whatever sequence of ingests ran and
-- whichever was killed (a file lands in one transaction; `--answers-first` lands it in two):
-- complete (ok, no stage, no error, its time elapsed_ns recorded); first answers only (ok,
-- stage 'answers', no time yet: stage 2 not run, running, or killed; an error only when its
-- stage 2 failed, the answers kept beside the reason); held for stage 2 (ok, stage 'pending',
-- no time, no error, no rows yet); failed or skipped (a reason, no rows, no stage, its time).
-- Anything else is unsound: an ok row without time nor stage is an ingest that never finished.
SELECT id, path, kind, status, stage, error, row_count, elapsed_ns
FROM source
WHERE NOT (
       (status = 'ok' AND stage IS NULL AND error IS NULL AND elapsed_ns IS NOT NULL)
    OR (status = 'ok' AND stage IS 'answers' AND elapsed_ns IS NULL)
    OR (status = 'ok' AND stage IS 'pending' AND elapsed_ns IS NULL AND error IS NULL AND row_count = 0)
    OR (status IN ('failed', 'skipped') AND stage IS NULL AND error IS NOT NULL AND row_count = 0
        AND elapsed_ns IS NOT NULL)
)
