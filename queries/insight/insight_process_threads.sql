-- title: Insight process threads
-- description: The threads of one process with the source they came from (the busy
--     summary of a process is the union of its threads).
-- param process_id (integer, required): The process (process.id).
-- column thread_id: Identifier of the thread.
-- column process_id: The process.
-- column source_id: Input the thread came from.
-- column tid: Thread id as the input writes it.
-- column max_dur: Longest slice on the thread, in ns.
select id as thread_id, process_id, source_id, tid, max_dur
from thread
where process_id = :process_id
order by id
