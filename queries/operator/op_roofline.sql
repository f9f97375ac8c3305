-- title: Operator roofline
-- description: The roofline charts of one operator profile (block 0x0D): for each roof,
--     the performance attainable at the operator's arithmetic intensity (the lower of the
--     compute roof and bandwidth x intensity), how much of it the operator reached, and
--     whether that roof is memory- or compute-bound at this intensity. Each roof has its own point
--     (the block writes one per roof). Only roofs with a positive bandwidth and compute roof (a
--     roof without either has no ridge).
-- param source_id (integer, required): The operator profile (op_runs.source_id).
-- column title: Chart title.
-- column line_index: Roof number in the chart.
-- column bw_name: Name of the bandwidth.
-- column bw: Bandwidth (the slope), as given.
-- column computility_name: Name of the compute roof.
-- column computility: Compute roof, as given.
-- column point_x: Arithmetic intensity of the operator.
-- column point_y: Performance the operator reached.
-- column attainable: Lower of computility and bw x point_x.
-- column efficiency: point_y / attainable.
-- column bound: memory when bw x point_x is under the compute roof, else compute.
with roofs as (
    select
        chart_index, title, line_index, bw_name, bw, computility_name, computility, point_x, point_y,
        case when bw * point_x < computility then bw * point_x else computility end as attainable
    from roofline
    where source_id = :source_id and bw > 0 and computility > 0
),

final as (
    select
        chart_index, title, line_index, bw_name, bw, computility_name, computility, point_x, point_y,
        attainable,
        point_y / nullif(attainable, 0) as efficiency,
        case when bw * point_x < computility then 'memory' else 'compute' end as bound
    from roofs
)

select
    title, line_index, bw_name, bw, computility_name, computility, point_x, point_y, attainable,
    efficiency, bound
from final
order by chart_index, line_index
