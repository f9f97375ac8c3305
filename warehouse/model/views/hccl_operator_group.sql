-- description: Each HCCL operator of hccl_operator with the communication group its collective
--     instance is formed within (the same collective on every rank of one group): what the
--     cross-rank answers (communication_collective_slow, communication_bottleneck,
--     communication_slow_rank, slow_rank_suspected) partition by. The operator's own group where
--     its input names one (a rank db's COMMUNICATION_OP). Where it names none (kernel_details.csv
--     and op_summary carry no group, a communication summary's operators only its hash), the
--     rank's parallel group (rank_group: DP, TP, CP, EP or PP, more than one rank) whose every
--     member with HCCL operators in the run calls an operator of that name; of several such groups the first in the order DP, TP, CP, EP, PP (for an
--     all-to-all: EP, CP, TP, DP, PP), so in a run stating data- and tensor-parallel groups an
--     all-reduce every rank calls is its data-parallel group's. A group is named by its HCCL name
--     where an input gives it (communication_group.json, cluster_analysis.db), else by the
--     framework's name and its ranks ('dp [0,2]'). Where nothing says (no name, no stated group
--     fits), '': every rank calling it is one instance, as before a run stated its groups, and
--     group_said_by says 'nothing'.
-- column run_id: Run.
-- column rank_id: Rank of the input file (-1 when unknown).
-- column name: Operator name, e.g. hcom_allReduce__123_0_1.
-- column type_name: The operator's type (hccl_operator.type_name).
-- column group_name: The communication group the operator's input names, else NULL.
-- column instance_group: The group its collective instance is formed within: group_name, else the
--     stated group's HCCL name, else the framework's group name and its ranks; '' when nothing says.
-- column group_kind: DP, TP, CP, EP or PP when the group comes from the run's parallel groups, else ''.
-- column group_ranks: The group's global ranks as a JSON array when it comes from the run's parallel
--     groups, else ''.
-- column group_said_by: What says the group: operator (its input names it), parallel_group_info,
--     communication_group or cluster_analysis_db (the stated parallel group, rank_group.said_by), or
--     nothing.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column source_id: Input the row came from.
-- column source_row: Row of the operator in its input.
-- column slice_id: The operator's slice on the timeline (slice.id).
-- column table_name: Table the operator was read from: communication_op (rank db), kernel (text
--     exports) or communication_time (a communication summary).
-- column row_id: Its row in that table (communication_op's or communication_time's rowid, or
--     kernel.id).
WITH captured AS (
    -- the ranks with HCCL operators: a stated group's members that are not captured cannot call
    SELECT DISTINCT run_id, rank_id FROM hccl_operator
),
callers AS (
    SELECT DISTINCT run_id, name, rank_id FROM hccl_operator WHERE group_name IS NULL
),
members AS (
    SELECT g.run_id, g.rank_id, g.kind, g.group_name, g.global_ranks, g.hccl_group, g.said_by
    FROM rank_group AS g
    JOIN captured AS c ON c.run_id = g.run_id AND c.rank_id = g.rank_id
    WHERE g.kind IS NOT NULL AND g.group_size > 1
),
sizes AS (
    SELECT run_id, kind, global_ranks, count(*) AS captured_members FROM members GROUP BY run_id, kind, global_ranks
),
-- the stated groups whose every captured member calls an operator of the name
fits AS (
    SELECT m.run_id, c.name, m.kind, m.global_ranks
    FROM members AS m
    JOIN callers AS c ON c.run_id = m.run_id AND c.rank_id = m.rank_id
    JOIN sizes AS s ON s.run_id = m.run_id AND s.kind = m.kind AND s.global_ranks = m.global_ranks
    GROUP BY m.run_id, c.name, m.kind, m.global_ranks, s.captured_members
    HAVING count(*) = s.captured_members
),
candidates AS (
    SELECT
        c.run_id, c.name, c.rank_id, m.kind, m.group_name, m.global_ranks, m.hccl_group, m.said_by,
        row_number() OVER (
            PARTITION BY c.run_id, c.name, c.rank_id
            ORDER BY
                CASE WHEN lower(c.name) LIKE '%alltoall%' THEN
                    CASE m.kind WHEN 'EP' THEN 1 WHEN 'CP' THEN 2 WHEN 'TP' THEN 3 WHEN 'DP' THEN 4 ELSE 5 END
                ELSE
                    CASE m.kind WHEN 'DP' THEN 1 WHEN 'TP' THEN 2 WHEN 'CP' THEN 3 WHEN 'EP' THEN 4 ELSE 5 END
                END,
                m.global_ranks
        ) AS preference
    FROM callers AS c
    JOIN members AS m ON m.run_id = c.run_id AND m.rank_id = c.rank_id
    JOIN fits AS f ON f.run_id = c.run_id AND f.name = c.name AND f.kind = m.kind AND f.global_ranks = m.global_ranks
)
SELECT
    h.run_id, h.rank_id, h.name, h.type_name, h.group_name,
    -- never NULL: a column no row fills would be typed apart by the engines (a number, which '' is not)
    coalesce(h.group_name, g.hccl_group, g.group_name || ' ' || g.global_ranks, '') AS instance_group,
    coalesce(g.kind, '') AS group_kind,
    coalesce(g.global_ranks, '') AS group_ranks,
    CASE WHEN h.group_name IS NOT NULL THEN 'operator' ELSE coalesce(g.said_by, 'nothing') END AS group_said_by,
    h.ts, h.dur, h.source_id, h.source_row, h.slice_id, h.table_name, h.row_id
FROM hccl_operator AS h
LEFT JOIN candidates AS g
    ON h.group_name IS NULL AND g.run_id = h.run_id AND g.name = h.name AND g.rank_id = h.rank_id
    AND g.preference = 1
