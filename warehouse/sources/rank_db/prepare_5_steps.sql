-- reads: STEP_TIME
-- The steps, indexed by start (kernels look up their step here).
INSERT OR IGNORE INTO temp.rank_db_step (start_ns, step_id, end_ns)
SELECT CAST(startNs AS INTEGER), id, CAST(endNs AS INTEGER)
FROM in_STEP_TIME
WHERE startNs IS NOT NULL AND id IS NOT NULL AND endNs IS NOT NULL;
