-- title: Operator hot instructions
-- description: The instructions of one operator profile that took the most cycles, summed
--     over the cores (or on one core), with their stalls and the source line they come from.
-- param source_id (integer, required): The operator profile (op_runs.source_id).
-- param core (text, default null): Only this core; every core when null.
-- param limit (integer, default 50): How many instructions to return.
-- column address: Instruction address.
-- column pipe: Pipe (instruction queue), e.g. SCALAR, MTE2, CUBE.
-- column source_text: The instruction.
-- column inner_file: Source file it comes from.
-- column inner_line: Source line it comes from.
-- column cycles: Cycles it took.
-- column instructions_executed: Times it ran.
-- column real_stall_cycles: Measured stall cycles.
-- column theoretical_stall_cycles: Expected stall cycles.
-- column cycles_ratio: cycles as a fraction of all instruction cycles in scope (0-1).
with instructions as (
    select
        address, pipe, source_text, inner_file, inner_line, cycles, instructions_executed,
        real_stall_cycles, theoretical_stall_cycles
    from instruction
    where source_id = :source_id and (:core is null or core = :core)
),

summed as (
    select
        address,
        min(pipe) as pipe,
        min(source_text) as source_text,
        min(inner_file) as inner_file,
        min(inner_line) as inner_line,
        sum(cycles) as cycles,
        sum(instructions_executed) as instructions_executed,
        sum(real_stall_cycles) as real_stall_cycles,
        sum(theoretical_stall_cycles) as theoretical_stall_cycles
    from instructions
    group by address
),

final as (
    select
        address, pipe, source_text, inner_file, inner_line, cycles, instructions_executed,
        real_stall_cycles, theoretical_stall_cycles,
        1.0 * cycles / nullif(sum(cycles) over (), 0) as cycles_ratio
    from summed
)

select
    address, pipe, source_text, inner_file, inner_line, cycles, instructions_executed,
    real_stall_cycles, theoretical_stall_cycles, cycles_ratio
from final
order by cycles desc, address
limit :limit
