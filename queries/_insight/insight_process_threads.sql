-- title: Insight process threads
-- description: One process and its threads (the busy summary of a process is the union of
--     its threads); one row with a null thread_id when the process has no thread, none when
--     there is no such process.
-- param process_id (integer, required): The process (process.id).
-- column process_id: The process.
-- column source_id: Input the process came from.
-- column process_name: Process name, when given.
-- column thread_id: Identifier of a thread of the process, null when it has none.
-- column tid: Thread id as the input writes it.
-- column max_dur: Longest slice on the thread, in ns.
select p.id as process_id, p.source_id, p.name as process_name, t.id as thread_id, t.tid, t.max_dur
from process as p
left join thread as t on t.process_id = p.id
where p.id = :process_id
order by t.id
