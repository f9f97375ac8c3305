-- title: Insight thread
-- description: One thread of the timeline with its process and the source it came from,
--     to check what a client names before drawing it.
-- param thread_id (integer, required): The thread (thread.id).
-- column thread_id: Identifier of the thread.
-- column process_id: Process the thread belongs to.
-- column source_id: Input the thread came from.
-- column tid: Thread id as the input writes it.
-- column name: Thread name, when given.
-- column max_dur: Longest slice on the thread, in ns.
select id as thread_id, process_id, source_id, tid, name, max_dur
from thread
where id = :thread_id
