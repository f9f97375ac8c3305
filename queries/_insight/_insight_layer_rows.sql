-- Helper (included by insight_layer_summary and insight_layer_trace, not a query itself): the slices
-- of one layer of a rank's timeline as MindStudio Insight's System View reads them, a CTE named
-- layer_rows (name, ts, dur). A layer is the slices of the rank's timeline processes of that name,
-- any case ('hccl' also takes the processes named 'communication'), as TextSqlConstant.h
-- GetQueryLayerDataSql and TraceDatabaseHelper.cpp GetSystemViewSqlByLayer select them; the layer
-- 'overlap analysis' also takes a rank db's OVERLAP_ANALYSIS intervals (overlap_interval), named as
-- the profiler's trace names its lanes. Only named slices whose name holds :search (any case) and,
-- when :start_ns is given, those overlapping [:start_ns, :end_ns]. Parameters :run_id and :rank_id
-- name the rank, :layer the layer.
layer_lanes as (
    select t.id as thread_id
    from thread as t
    join process as p on p.id = t.process_id
    join answer_source as a on a.source_id = t.source_id and a.fact = 'timeline'
    where a.run_id = :run_id and a.rank_id = :rank_id
        and (lower(p.name) = lower(:layer)
            or (lower(:layer) = 'hccl' and lower(p.name) = 'communication'))
),

layer_traced as (
    -- each lane read on the (thread_id, ts) index
    select n.value as name, s.ts, s.dur
    from layer_lanes as l
    cross join _slice as s
    join string as n on n.id = s.name_id
    where s.thread_id = l.thread_id
),

layer_intervals as (
    select
        case o.type
            when 'computing' then 'Computing'
            when 'communication' then 'Communication'
            when 'communication_not_overlapped' then 'Communication(Not Overlapped)'
            else 'Free'
        end as name,
        o.ts,
        o.dur
    from overlap_interval as o
    join answer_source as a on a.source_id = o.source_id and a.fact = 'timeline'
    where lower(:layer) = 'overlap analysis' and a.run_id = :run_id and a.rank_id = :rank_id
),

layer_rows as (
    select name, ts, dur
    from (select name, ts, dur from layer_traced union all select name, ts, dur from layer_intervals) as u
    where name != '' and (:search = '' or instr(lower(name), lower(:search)) > 0)
        and (:start_ns is null or (ts + dur >= :start_ns and ts <= :end_ns))
)
