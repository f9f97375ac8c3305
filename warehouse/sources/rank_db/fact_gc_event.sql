-- reads: GC_RECORD
-- GC_RECORD: garbage-collection pauses.
INSERT INTO gc_event (source_id, source_row, rank_id, global_tid, ts, dur)
SELECT
    :source_id, g._row, :rank_id, g.globalTid, CAST(g.startNs AS INTEGER),
    CAST(g.endNs AS INTEGER) - CAST(g.startNs AS INTEGER)
FROM in_GC_RECORD AS g;
