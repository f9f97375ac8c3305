-- title: Compare: step time evidence
-- description: The longest steps of a run (every rank) with the input and row that give each one:
--     the profiler's step summary when it answers the step, else the answering step row (step_source).
-- param run_id (integer, required): The run.
-- param limit (integer, default 3): How many steps.
-- column path: Input file.
-- column row: Row of the input (null when the input has no row numbers).
-- column table_name: Table of the evidence row.
-- column rank_id: Rank.
-- column step_id: Step.
-- column value: Step duration, in ns.
-- column what: What value is.
select
    s.path, u.source_row as row,
    case when u.source_id is not null then 'step_trace_time' else 'step' end as table_name,
    a.rank_id, a.step_id, a.duration_ns as value, 'step duration (ns)' as what
from step_answer as a
left join step_summary as u on u.run_id = a.run_id and u.rank_id = a.rank_id and u.step_id = a.step_id
left join step_source as t on t.run_id = a.run_id and t.rank_id = a.rank_id
left join step as st on st.source_id = t.source_id and st.rank_id = a.rank_id and st.step_id = a.step_id
left join source as s on s.id = coalesce(u.source_id, st.source_id)
where a.run_id = :run_id
order by a.duration_ns desc, a.rank_id, a.step_id
limit :limit
