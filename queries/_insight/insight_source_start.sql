-- title: Insight source start
-- description: The earliest slice start of one input: time zero of its timeline in the
--     operator-view protocol, whose times are relative to it as the MindStudio Insight
--     server's are (absolute epoch nanoseconds pass 2**53, which a browser cannot hold).
-- param source_id (integer, required): The input (source.id).
-- column start_ns: Its earliest slice start in ns (NULL when it has no slice).
select min(s.ts) as start_ns
from slice as s
join thread as t on t.id = s.thread_id
where t.source_id = :source_id
