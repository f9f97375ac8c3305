-- The profiler's own overlap analysis (OVERLAP_ANALYSIS of a CANN msprof_N.db, or of a db export
-- MindStudio Insight has opened): the device timeline cut into computing, communication,
-- communication not overlapped and free intervals. warehouse check reconciles them per step with
-- the breakdown the warehouse derives from the rows (audit overlap_analysis_agrees).

-- One interval of the profiler's overlap analysis per row: OVERLAP_ANALYSIS.
CREATE TABLE overlap_interval (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of OVERLAP_ANALYSIS (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- Device the interval is of (deviceId).
    device_id INTEGER,
    -- Start of the interval in ns (startNs).
    ts INTEGER,
    -- Length of the interval in ns (endNs - startNs).
    dur INTEGER,
    -- What the device did (ENUM_OVERLAP_ANALYSIS_TYPE(type)): computing (0), communication (1),
    -- communication_not_overlapped (2) or free (3); any other id as its number.
    type TEXT
);
CREATE INDEX overlap_interval_source_ts ON overlap_interval (source_id, ts);
