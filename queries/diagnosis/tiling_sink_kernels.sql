-- title: Tiling-sink kernels
-- description: The kernels whose tiling runs on the device (seed 002, tiling sink): on the
--     device task streams of a rank db, a kernel that follows, on its own stream, one or more
--     NOP tasks right after an EVENT_WAIT (the NOPs cover the AI Core's prefetch: 8 on the 910B,
--     5 on the 310P), with the AICPU tiling task (KERNEL_AICPU, the last one on the device
--     that started before the wait ended), the MODEL_TASK_UPDATE that refreshes the kernel's
--     tiling key and block dim (the first on the device from the tiling task's start) and the
--     EVENT_RECORD that releases the wait (the first on the update's stream from its start).
--     The tiling, update and record may run on an attached stream or on the kernel's own.
--     The wait -> NOP x N -> kernel run alone is the anchor; complete is 1 when all six parts
--     were found. Tasks are in their stream's order (start, then slice id). Only rank dbs
--     keep the task types (TASK.taskType, the slices' category).
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step the kernel started in (step_span: from a step's start to the next step's; -1: the whole capture of a rank without steps; null: before the first step).
-- column device_id: Device of the kernel's stream.
-- column stream_id: Stream of the wait, the NOPs and the kernel.
-- column kernel_id: kernel.id of the kernel.
-- column kernel_slice_id: slice.id of the kernel's task.
-- column name: Kernel name.
-- column op_type: Kernel operator type.
-- column nops: NOP tasks between the wait and the kernel.
-- column wait_slice_id: slice.id of the EVENT_WAIT task.
-- column tiling_slice_id: slice.id of the AICPU tiling task (null when none was found).
-- column tiling_ns: Duration of the AICPU tiling task in ns.
-- column update_slice_id: slice.id of the MODEL_TASK_UPDATE task (null when none was found).
-- column record_slice_id: slice.id of the EVENT_RECORD task (null when none was found).
-- column complete: 1 when tiling, wait, NOPs, kernel, update and record were all found.
-- column ts: Start of the kernel in ns.
-- column dur: Duration of the kernel in ns.
with tasks as (
    select src.run_id, p.rank_id, cast(p.pid as integer) as device_id, cast(t.tid as integer) as stream_id,
        s.thread_id, s.id as slice_id, s.category as task_type, s.ts, s.dur
    from slice as s
    join thread as t on t.id = s.thread_id
    join process as p on p.id = t.process_id
    join source as src on src.id = s.source_id
    where p.name = 'Ascend Hardware' and src.kind = 'rank_db' and (:run_id is null or src.run_id = :run_id)
),

ordered as (
    select run_id, rank_id, device_id, stream_id, thread_id, slice_id, task_type, ts, dur,
        row_number() over (partition by thread_id order by ts, slice_id) as position
    from tasks
),

marked as (
    -- the position of the last task before this one that is not a NOP
    select run_id, rank_id, device_id, stream_id, thread_id, slice_id, task_type, ts, dur, position,
        max(case when task_type <> 'NOP' then position end) over (
            partition by thread_id order by position rows between unbounded preceding and 1 preceding
        ) as before_nops
    from ordered
),

anchored as (
    select m.run_id, m.rank_id, m.device_id, m.stream_id, k.id as kernel_id, m.slice_id as kernel_slice_id, k.name,
        k.op_type, m.position - w.position - 1 as nops, w.slice_id as wait_slice_id, w.ts + w.dur as wait_end_ns,
        m.ts, m.dur
    from marked as m
    join ordered as w on w.thread_id = m.thread_id and w.position = m.before_nops
    join kernel as k on k.slice_id = m.slice_id
    where w.task_type = 'EVENT_WAIT' and m.position - w.position > 1 and m.task_type not in ('KERNEL_AICPU', 'AI_CPU')
),

controls as (
    select run_id, rank_id, device_id, stream_id, slice_id, task_type, ts, dur
    from tasks
    where task_type in ('KERNEL_AICPU', 'AI_CPU', 'MODEL_TASK_UPDATE', 'EVENT_RECORD')
),

tiling as (
    select a.run_id, a.rank_id, a.device_id, a.kernel_slice_id, min(c.slice_id) as tiling_slice_id
    from anchored as a
    join controls as c on c.run_id = a.run_id and c.rank_id = a.rank_id and c.device_id = a.device_id
    where c.task_type in ('KERNEL_AICPU', 'AI_CPU') and c.ts = (
        select max(x.ts) from controls as x
        where x.run_id = a.run_id and x.rank_id = a.rank_id and x.device_id = a.device_id
            and x.task_type in ('KERNEL_AICPU', 'AI_CPU') and x.ts <= a.wait_end_ns
    )
    group by a.run_id, a.rank_id, a.device_id, a.kernel_slice_id
),

tiled as (
    select t.run_id, t.rank_id, t.device_id, t.kernel_slice_id, t.tiling_slice_id, c.ts as tiling_ts,
        c.dur as tiling_ns
    from tiling as t
    join controls as c on c.slice_id = t.tiling_slice_id
),

updated as (
    select t.kernel_slice_id, min(c.slice_id) as update_slice_id
    from tiled as t
    join controls as c on c.run_id = t.run_id and c.rank_id = t.rank_id and c.device_id = t.device_id
    where c.task_type = 'MODEL_TASK_UPDATE' and c.ts = (
        select min(x.ts) from controls as x
        where x.run_id = t.run_id and x.rank_id = t.rank_id and x.device_id = t.device_id
            and x.task_type = 'MODEL_TASK_UPDATE' and x.ts >= t.tiling_ts
    )
    group by t.kernel_slice_id
),

recorded as (
    select u.kernel_slice_id, min(c.slice_id) as record_slice_id
    from updated as u
    join controls as p on p.slice_id = u.update_slice_id
    join controls as c on c.run_id = p.run_id and c.rank_id = p.rank_id and c.device_id = p.device_id
        and c.stream_id = p.stream_id
    where c.task_type = 'EVENT_RECORD' and c.ts = (
        select min(x.ts) from controls as x
        where x.run_id = p.run_id and x.rank_id = p.rank_id and x.device_id = p.device_id
            and x.stream_id = p.stream_id and x.task_type = 'EVENT_RECORD' and x.ts >= p.ts
    )
    group by u.kernel_slice_id
),

final as (
    select a.run_id, a.rank_id, w.step_id, a.device_id, a.stream_id, a.kernel_id, a.kernel_slice_id, a.name,
        a.op_type, a.nops, a.wait_slice_id, t.tiling_slice_id, t.tiling_ns, u.update_slice_id, r.record_slice_id,
        case when r.record_slice_id is null then 0 else 1 end as complete, a.ts, a.dur
    from anchored as a
    left join tiled as t on t.kernel_slice_id = a.kernel_slice_id
    left join updated as u on u.kernel_slice_id = a.kernel_slice_id
    left join recorded as r on r.kernel_slice_id = a.kernel_slice_id
    left join step_span as w on w.run_id = a.run_id and w.rank_id = a.rank_id and a.ts >= w.span_start_ns
        and a.ts < w.span_end_ns
)

select run_id, rank_id, step_id, device_id, stream_id, kernel_id, kernel_slice_id, name, op_type, nops, wait_slice_id,
    tiling_slice_id, tiling_ns, update_slice_id, record_slice_id, complete, ts, dur
from final
order by run_id, rank_id, ts, kernel_slice_id
