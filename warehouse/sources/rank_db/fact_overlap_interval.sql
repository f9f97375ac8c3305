-- reads: OVERLAP_ANALYSIS
-- OVERLAP_ANALYSIS: the profiler's computing / communication / communication not overlapped /
-- free intervals of the device. The types are fixed ids (ENUM_OVERLAP_ANALYSIS_TYPE: 0 COMPUTE,
-- 1 COMMUNICATION, 2 COMM_NOT_OVERLAP_COMP, 3 FREE), named here as step_breakdown names its
-- figures; MindStudio Insight, which adds the table to a db export it opens, writes no enum table.
INSERT INTO overlap_interval (source_id, source_row, rank_id, device_id, ts, dur, type)
SELECT
    :source_id,
    o._row,
    :rank_id,
    COALESCE(o.deviceId, :device_id),
    CAST(o.startNs AS INTEGER),
    CAST(o.endNs AS INTEGER) - CAST(o.startNs AS INTEGER),
    CASE o.type WHEN 0 THEN 'computing' WHEN 1 THEN 'communication' WHEN 2 THEN 'communication_not_overlapped'
        WHEN 3 THEN 'free' ELSE CAST(o.type AS TEXT) END
FROM in_OVERLAP_ANALYSIS AS o;
