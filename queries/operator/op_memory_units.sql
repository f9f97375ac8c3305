-- title: Operator memory paths
-- description: Traffic of one operator profile on each memory path (memory heat map,
--     block 0x08) over its cores: requests, bandwidth and the highest share of the peak
--     bandwidth (invalid -1 figures left out). Enum codes first, in numeric order, then names: the
--     column keeps each value as the input typed it and an export holds them as text, so the order
--     is spelled on the text (codes by length, then digits) to read the same on every engine.
-- param source_id (integer, required): The operator profile (op_runs.source_id).
-- column memory_path: Memory path: an enum code in real files, a name in the seed.
-- column blocks: Number of cores with figures for the path.
-- column requests: Summed requests.
-- column avg_bandwidth_gb_s: Mean bandwidth over the cores, in GB/s.
-- column max_bandwidth_gb_s: Highest bandwidth of a core, in GB/s.
-- column avg_bandwidth_bytes_per_s: Mean bandwidth over the cores, in bytes/s (GB = 10**9 bytes).
-- column max_bandwidth_bytes_per_s: Highest bandwidth of a core, in bytes/s.
-- column max_peak_ratio: Highest share of the peak bandwidth, in percent.
with paths as (
    select memory_path, block_id, request, bandwidth_gb_s, bandwidth_bytes_per_s, peak_ratio
    from memory_unit
    where source_id = :source_id
),

final as (
    select
        memory_path,
        count(distinct block_id) as blocks,
        sum(request) as requests,
        avg(bandwidth_gb_s) as avg_bandwidth_gb_s,
        max(bandwidth_gb_s) as max_bandwidth_gb_s,
        avg(bandwidth_bytes_per_s) as avg_bandwidth_bytes_per_s,
        max(bandwidth_bytes_per_s) as max_bandwidth_bytes_per_s,
        max(case when peak_ratio >= 0 then peak_ratio end) as max_peak_ratio,
        cast(memory_path as text) as path_text,
        case when ltrim(cast(memory_path as text), '0123456789') = '' then 1 else 0 end as is_code
    from paths
    group by memory_path
)

select
    memory_path, blocks, requests, avg_bandwidth_gb_s, max_bandwidth_gb_s, avg_bandwidth_bytes_per_s,
    max_bandwidth_bytes_per_s, max_peak_ratio
from final
order by is_code desc, case when is_code = 1 then length(path_text) end, path_text
