-- title: Operator hot source lines
-- description: The source lines of one operator profile that took the most cycles, summed
--     over the cores (or on one core), with their share of all the profile's line cycles.
-- param source_id (integer, required): The operator profile (op_runs.source_id).
-- param core (text, default null): Only this core (e.g. core0.cubecore0); every core when null.
-- param limit (integer, default 50): How many lines to return.
-- column file: Source file path.
-- column line: Line number.
-- column cycles: Cycles the line took.
-- column instructions_executed: Instructions of the line executed.
-- column cores: Number of cores the line ran on.
-- column cycles_ratio: cycles as a fraction of all line cycles in scope (0-1).
with lines as (
    select file, line, core, cycles, instructions_executed
    from code_line
    where source_id = :source_id and (:core is null or core = :core)
),

summed as (
    select
        file,
        line,
        sum(cycles) as cycles,
        sum(instructions_executed) as instructions_executed,
        count(distinct core) as cores
    from lines
    group by file, line
),

final as (
    select
        file, line, cycles, instructions_executed, cores,
        1.0 * cycles / nullif(sum(cycles) over (), 0) as cycles_ratio
    from summed
)

select file, line, cycles, instructions_executed, cores, cycles_ratio
from final
order by cycles desc, file, line
limit :limit
