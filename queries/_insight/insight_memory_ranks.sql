-- title: Insight memory ranks
-- description: The ranks holding memory data MindStudio Insight's Memory page shows: an input
--     answering their memory records or their operator memory (answer_source, facts memory and
--     op_memory), or a static_op_mem.csv. One row per rank of a run.
-- column run_id: Run of the rank (run.run_id).
-- column rank_id: The rank.
with final as (
    select a.run_id, a.rank_id
    from answer_source as a
    where a.fact in ('memory', 'op_memory')
    union
    select s.run_id, s.rank_id
    from source as s
    where s.kind = 'static_op_mem_csv' and s.status = 'ok'
)

select run_id, rank_id
from final
order by run_id, rank_id
