-- title: Insight source start
-- description: The earliest slice start or counter sample of one input: time zero of its timeline
--     in the operator-view protocol, whose times are relative to it as the MindStudio Insight
--     server's are (absolute epoch nanoseconds pass 2**53, which a browser cannot hold). The
--     counters are those its Timeline draws (series of a process), as the real server's text
--     timeline takes its extent over slices and counters (TextSqlConstant.h QUERY_EXETREME_TIME_SQL):
--     a counter sampled before the first slice is then drawn.
-- param source_id (integer, required): The input (source.id).
-- column start_ns: Its earliest slice start or drawn counter sample in ns (NULL when it has neither).
with firsts as (
    select min(s.ts) as ts
    from slice as s
    join thread as t on t.id = s.thread_id
    where t.source_id = :source_id
    union all
    select min((select min(k.ts) from _counter as k where k.track_id = c.id)) as ts
    from counter_track as c
    where c.source_id = :source_id and c.process_id is not null
),

final as (
    select min(ts) as start_ns
    from firsts
)

select start_ns
from final
