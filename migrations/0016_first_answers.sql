-- First answers first (issue 21 item 1): `warehouse ingest --answers-first` stages each rank db
-- before its full ingest. Stage 1 reads the raw file and writes only what the cluster answers
-- need, aggregated (a few hundred rows per rank): its step breakdown per step, its HCCL operators
-- per type, its kernels per name and class (warehouse/staged/). Stage 2 is the ordinary full
-- ingest of the same file into the same source row; it deletes the staged rows in the same
-- transaction, so the warehouse ends as a plain full ingest leaves it. The answers' named
-- queries read the staged rows for staged ranks and the full tables otherwise (kernel_total,
-- hccl_total, step_answer), so a query answers the same before and after stage 2.

-- What is still to come of an ok input: NULL when it is complete; 'answers' when only its first
-- answers are in (a staged rank db: the staged_* rows); 'pending' when nothing of it is in yet
-- (another file staged with it, ingested whole by stage 2). A staged input whose stage 2 failed
-- keeps its stage and its first answers, and source.error says why.
ALTER TABLE source ADD COLUMN stage TEXT CHECK (stage IN ('answers', 'pending'));

-- The steps of a staged rank db with their breakdown as step_breakdown derives it from the rank's
-- kernels and HCCL operators (the same views computed over the raw file's rows); the breakdown
-- columns are NULL where the profiler's own summary (an analysis.db beside it) answers the rank,
-- as step_answer then reads only the steps' markers.
CREATE TABLE staged_step (
    -- The staged rank db (source.id).
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Rank.
    rank_id INTEGER NOT NULL,
    -- Step number.
    step_id INTEGER NOT NULL,
    -- Host start of the step (the profiler's step marker), in ns.
    start_ns INTEGER NOT NULL,
    -- Host end of the step, in ns.
    end_ns INTEGER NOT NULL,
    -- Time some compute kernel ran, in ns (Computing).
    computing_ns INTEGER,
    -- Communication not overlapped by compute, in ns (Communication(Not Overlapped)).
    communication_not_overlapped_ns INTEGER,
    -- Communication overlapped by compute, in ns (Overlapped).
    overlapped_ns INTEGER,
    -- Time some communication ran, in ns (Communication).
    communication_ns INTEGER,
    -- Gaps between the first and the last device activity, in ns (Free).
    free_ns INTEGER,
    -- First to last device activity less the bubble, in ns (Stage).
    stage_ns INTEGER,
    -- Receive operators (hcom_receive*), in ns (Bubble).
    bubble_ns INTEGER,
    -- Communication not overlapped, receives excluded, in ns.
    communication_not_overlapped_exclude_receive_ns INTEGER,
    -- Host step start to the first device activity, in ns (Preparing).
    preparing_ns INTEGER,
    PRIMARY KEY (source_id, step_id)
);

-- The device kernels of a staged rank db per name and class (kernel_total's figures of the rank).
CREATE TABLE staged_kernel (
    -- The staged rank db (source.id).
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Rank.
    rank_id INTEGER NOT NULL,
    -- Kernel name.
    name TEXT,
    -- Class (seed 004), as the kernel classification gives it (warehouse/model/classify.sql).
    op_class TEXT,
    -- Number of kernels.
    count INTEGER NOT NULL,
    -- Number of them with a duration.
    timed INTEGER NOT NULL,
    -- Summed duration in ns.
    total_ns INTEGER,
    -- Longest kernel in ns.
    max_ns INTEGER
);
CREATE INDEX staged_kernel_source ON staged_kernel (source_id);

-- The HCCL operators of a staged rank db per operator type (hccl_total's figures of the rank).
CREATE TABLE staged_hccl (
    -- The staged rank db (source.id).
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Rank.
    rank_id INTEGER NOT NULL,
    -- Operator type (hccl_total.name).
    name TEXT,
    -- Number of operators.
    count INTEGER NOT NULL,
    -- Number of them with a duration.
    timed INTEGER NOT NULL,
    -- Summed duration in ns.
    total_ns INTEGER,
    -- Longest operator in ns.
    max_ns INTEGER
);
CREATE INDEX staged_hccl_source ON staged_hccl (source_id);

-- The answering device kernels (kernel_answer) per run, rank, name and class: count, count with a
-- duration, total and longest; a staged rank's from staged_kernel. What top_kernels sums.
CREATE VIEW kernel_total AS
SELECT run_id, rank_id, name, op_class, count(*) AS count, count(dur) AS timed, sum(dur) AS total_ns,
    max(dur) AS max_ns
FROM kernel_answer
GROUP BY run_id, rank_id, name, op_class
UNION ALL
SELECT a.run_id, k.rank_id, k.name, k.op_class, k.count, k.timed, k.total_ns, k.max_ns
FROM staged_kernel AS k
JOIN answer_source AS a ON a.source_id = k.source_id AND a.fact = 'kernel';

-- The HCCL operators (hccl_operator) per run, rank and operator type: the type as the input states
-- it, else the name less its instance suffix ('hcom_allReduce__868_0_1': a level0 rank db writes
-- 'N/A', kernel_details.csv no type), so both exports name it alike; count, count with a duration,
-- total and longest; a staged rank's from staged_hccl. What communication_ops sums.
CREATE VIEW hccl_total AS
WITH typed AS (
    SELECT
        run_id, rank_id,
        coalesce(
            nullif(op_type, 'N/A'), CASE WHEN instr(name, '__') > 0 THEN substr(name, 1, instr(name, '__')) END, name
        ) AS name,
        dur
    FROM hccl_operator
)
SELECT run_id, rank_id, name, count(*) AS count, count(dur) AS timed, sum(dur) AS total_ns, max(dur) AS max_ns
FROM typed
GROUP BY run_id, rank_id, name
UNION ALL
SELECT a.run_id, h.rank_id, h.name, h.count, h.timed, h.total_ns, h.max_ns
FROM staged_hccl AS h
JOIN answer_source AS a ON a.source_id = h.source_id AND a.fact = 'kernel';

-- The staged steps of each rank of each run (staged_step of the input answering the rank's
-- timeline), each saying whether the profiler's own summary answers for its rank, as step_marker does.
CREATE VIEW staged_step_marker AS
SELECT
    a.run_id, st.rank_id, st.step_id, st.start_ns, st.end_ns, st.computing_ns, st.communication_not_overlapped_ns,
    st.overlapped_ns, st.communication_ns, st.free_ns, st.stage_ns, st.bubble_ns, st.preparing_ns,
    CASE WHEN EXISTS (
        SELECT 1 FROM summary_answer AS sa
        WHERE sa.run_id = a.run_id AND sa.rank_id = st.rank_id AND sa.fact = 'step_summary'
    ) THEN 1 ELSE 0 END AS summarized
FROM staged_step AS st
JOIN answer_source AS a ON a.source_id = st.source_id AND a.fact = 'timeline';

-- step_answer as migration 0008 defines it, with the staged ranks' steps: their markers beside the
-- profiler's summary, and their staged breakdown where no summary answers (basis 'derived').
DROP VIEW step_answer;
-- The step breakdown that answers for every step of every rank of every run (migration 0008), staged ranks included.
CREATE VIEW step_answer AS
WITH answered AS (
    SELECT
        s.run_id, s.rank_id, s.step_id, d.start_ns, d.end_ns, s.computing_ns, s.communication_not_overlapped_ns,
        s.overlapped_ns, s.communication_ns, s.free_ns, coalesce(s.preparing_ns, 0) AS preparing_ns, s.stage_ns,
        s.bubble_ns, s.kind AS basis
    FROM step_summary AS s
    LEFT JOIN (
        SELECT a.run_id, m.rank_id, m.step_id, m.start_ns, m.end_ns
        FROM step_marker AS m
        JOIN answer_source AS a ON a.source_id = m.source_id AND a.fact = 'timeline'
        UNION ALL
        SELECT run_id, rank_id, step_id, start_ns, end_ns FROM staged_step_marker
    ) AS d ON d.run_id = s.run_id AND d.rank_id = s.rank_id AND d.step_id = s.step_id
    UNION ALL
    SELECT
        d.run_id, d.rank_id, d.step_id, d.start_ns, d.end_ns, d.computing_ns, d.communication_not_overlapped_ns,
        d.overlapped_ns, d.communication_ns, d.free_ns, d.preparing_ns, d.stage_ns, d.bubble_ns, 'derived' AS basis
    FROM step_breakdown AS d
    WHERE d.summarized = 0
    UNION ALL
    SELECT
        d.run_id, d.rank_id, d.step_id, d.start_ns, d.end_ns, d.computing_ns, d.communication_not_overlapped_ns,
        d.overlapped_ns, d.communication_ns, d.free_ns, d.preparing_ns, d.stage_ns, d.bubble_ns, 'derived' AS basis
    FROM staged_step_marker AS d
    WHERE d.summarized = 0
)
SELECT
    run_id, rank_id, step_id, start_ns, end_ns,
    coalesce(preparing_ns, 0) + coalesce(stage_ns, 0) + coalesce(bubble_ns, 0) AS duration_ns,
    computing_ns, communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, preparing_ns,
    stage_ns, bubble_ns, basis
FROM answered;
