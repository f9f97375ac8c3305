-- One timeline's times moved to another clock: :offset_ns added to every time the source's
-- rows hold (slices, counter samples, flow end points), right after the source wrote them.
UPDATE _slice SET ts = ts + :offset_ns WHERE source_id = :source_id;

UPDATE _counter SET ts = ts + :offset_ns WHERE source_id = :source_id;

UPDATE flow SET ts_out = ts_out + :offset_ns, ts_in = ts_in + :offset_ns WHERE source_id = :source_id;
