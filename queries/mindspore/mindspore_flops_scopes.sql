-- title: MindSpore FLOPs per scope
-- description: Per run and MindSpore device, the FLOPs of each scope of the network and the scope it is
--     part of (flops_scope_{device}.json: mindspore_flops_scope), the links of the Sankey diagram
--     MindInsight's FLOPs analyser draws (from Total down to each scope); each link's share of the
--     device's total (the links out of Total).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this device; every device when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column parent_scope: The scope it is part of (Total at the top).
-- column scope: The scope.
-- column mflops: Its MFLOPs.
-- column share: mflops / the MFLOPs of the links out of Total.
with links as (
    select s.run_id, f.rank_id, f.source_id, f.source_row, f.parent_scope, f.scope, f.mflops
    from mindspore_flops_scope as f
    join source as s on s.id = f.source_id and s.status = 'ok'
    where (:run_id is null or s.run_id = :run_id) and (:rank_id is null or f.rank_id = :rank_id)
),

final as (
    select
        run_id, rank_id, source_id, source_row, parent_scope, scope, mflops,
        mflops / nullif(sum(case when parent_scope = 'Total' then mflops end) over (partition by source_id), 0)
            as share
    from links
)

select run_id, rank_id, parent_scope, scope, mflops, share
from final
order by run_id, rank_id, source_id, source_row
