-- title: Operator profiles
-- description: The operator profiles in the warehouse (one visualize_data.bin each): the
--     operator, the SoC, its core layout and duration. source_id names a profile in the
--     other op_* queries. roofs says which profiles the roofline page can draw.
-- column source_id: Input the profile came from: the profile's id in the op_* queries.
-- column card: Profile name the input was given (source.card), when any.
-- column path: Path of the input.
-- column name: Operator (kernel) name.
-- column soc: SoC it ran on.
-- column op_type: aic, aiv or mix.
-- column block_dim: Number of blocks (main cores).
-- column mix_block_dim: Number of companion sub-cores of a mix operator.
-- column duration_us: Duration in microseconds, as the profile gives it.
-- column dur: Duration in ns (duration_us * 1000, converted exactly from the profile's text).
-- column device_id: NPU device id.
-- column pid: Process id of the profiled program.
-- column roofs: Roofs of its roofline charts (op_roofline's rows: a positive bandwidth and compute
--     roof); 0 when the profile has no roofline block.
with runs as (
    select source_id, name, soc, op_type, block_dim, mix_block_dim, duration_us, dur, device_id, pid
    from op_run
),

roofs as (
    select source_id, count(*) as roofs
    from roofline
    where bw > 0 and computility > 0
    group by source_id
),

final as (
    select
        r.source_id, s.card, s.path, r.name, r.soc, r.op_type, r.block_dim, r.mix_block_dim,
        r.duration_us, r.dur, r.device_id, r.pid, coalesce(f.roofs, 0) as roofs
    from runs as r
    join source as s on s.id = r.source_id
    left join roofs as f on f.source_id = r.source_id
)

select
    source_id, card, path, name, soc, op_type, block_dim, mix_block_dim, duration_us, dur, device_id, pid, roofs
from final
order by source_id
