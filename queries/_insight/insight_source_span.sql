-- title: Insight source span
-- description: The first slice start and the last slice end of one input: its timeline's extent,
--     whose length is the maxTimeStamp MindStudio Insight's parse/success event carries.
-- param source_id (integer, required): The input (source.id).
-- column start_ns: Its earliest slice start in ns (NULL when it has no slice).
-- column end_ns: Its latest slice end in ns (NULL when it has no slice).
select min(s.ts) as start_ns, max(s.ts + s.dur) as end_ns
from _slice as s
join thread as t on t.id = s.thread_id
where t.source_id = :source_id
