-- description: Sampled values over time, with the name of their series.
-- column id: Identifier referenced by _counter.track_id.
-- column track_id: Series the sample belongs to.
-- column name: Name of the series ('<event name>.<arg>' for trace counters, e.g. 'HBM
--     0.Read(MB/s)').
-- column ts: Time of the sample in ns.
-- column value: The sampled value.
-- column rank_id: Rank the series belongs to, when known.
-- column source_id: Input the sample came from.
SELECT
    c.rowid AS id,
    c.track_id,
    t.name,
    c.ts,
    c.value,
    t.rank_id,
    c.source_id
FROM _counter AS c
JOIN counter_track AS t ON t.id = c.track_id
