-- title: Insight counter samples
-- description: The samples of one counter series in a time range, in time order: the values a
--     counter lane of MindStudio Insight's Timeline plots (unit/counter). Read on the (track_id, ts)
--     index.
-- param track_id (integer, required): The series (counter_track.id).
-- param start_ns (integer, required): Start of the range in ns (absolute).
-- param end_ns (integer, required): End of the range in ns (absolute).
-- column ts: Time of the sample in ns.
-- column value: The sampled value.
select ts, value
from _counter
where track_id = :track_id and ts >= :start_ns and ts <= :end_ns
order by ts, value
