-- title: Insight source span
-- description: The first slice start or counter sample and the last slice end or counter sample
--     of one input: its timeline's extent, whose length is the maxTimeStamp MindStudio Insight's
--     parse/success event carries. The counters are those its Timeline draws (series of a
--     process), as the real server's text timeline takes its extent over slices and counters
--     (TextSqlConstant.h QUERY_EXETREME_TIME_SQL).
-- param source_id (integer, required): The input (source.id).
-- column start_ns: Its earliest slice start or drawn counter sample in ns (NULL when it has neither).
-- column end_ns: Its latest slice end or drawn counter sample in ns (NULL when it has neither).
with extents as (
    select min(s.ts) as first, max(s.ts + s.dur) as last
    from _slice as s
    join thread as t on t.id = s.thread_id
    where t.source_id = :source_id
    union all
    select
        min((select min(k.ts) from _counter as k where k.track_id = c.id)) as first,
        max((select max(k.ts) from _counter as k where k.track_id = c.id)) as last
    from counter_track as c
    where c.source_id = :source_id and c.process_id is not null
),

final as (
    select min(first) as start_ns, max(last) as end_ns
    from extents
)

select start_ns, end_ns
from final
