-- title: Insight memory static operators
-- description: The statically compiled graph operators of one rank with their memory
--     (static_op_mem.csv), as MindStudio Insight's static memory view reads them
--     (server/src/modules/memory TextMemoryDataBase): the graph's TOTAL row included, size in KB.
-- param run_id (integer, required): The run (run.run_id).
-- param rank_id (integer, required): The rank.
-- column device: Device as written (host, or the NPU).
-- column op_name: Operator name (TOTAL: the graph's whole memory).
-- column model_name: Model name.
-- column graph_id: Graph id.
-- column node_index_start: First node index the memory is held at.
-- column node_index_end: Last node index the memory is held at (4294967295: to the end).
-- column size_kb: Size in KB.
select m.device, m.op_name, m.model_name, m.graph_id, m.node_index_start, m.node_index_end,
    m.size_bytes / 1024.0 as size_kb
from static_op_memory as m
join source as s on s.id = m.source_id
where s.run_id = :run_id and s.rank_id = :rank_id and s.status = 'ok'
order by m.source_id, m.source_row
