-- MindSpore's older profiler files (issue 37: MindInsight's run_1 and run_2 test resources), each read as
-- its version wrote it. The AI Core time per operator now comes from up to three files of one run and
-- device: aicore_intermediate_{device}_detail.csv answers (the fact aicore_op), else
-- output_op_compute_time_{device}.txt (the operator compute time table the older profiler wrote and copied
-- into the CSV), else the Detail section of output_op_compute_time_detail_{device}.txt; the audit
-- mindspore_aicore_ops_agree reconciles the others with the answering one. Likewise the time per operator
-- type: aicore_intermediate_{device}_type.csv answers (the fact aicore_type), the type section of
-- output_op_compute_time_detail_{device}.txt only where it is alone (audit mindspore_aicore_types_agree).
INSERT INTO fact_precedence (fact, kind, precedence) VALUES
    ('aicore_op', 'mindspore_aicore_detail_csv', 1),
    ('aicore_op', 'mindspore_op_compute_time_txt', 2),
    ('aicore_op', 'mindspore_op_compute_detail_txt', 3),
    ('aicore_type', 'mindspore_aicore_type_csv', 1),
    ('aicore_type', 'mindspore_op_compute_detail_txt', 2);

-- Stream the operator ran on (output_op_compute_time_{device}.txt's stream_id; NULL elsewhere).
ALTER TABLE mindspore_aicore_op ADD COLUMN stream_id INTEGER;
-- The operator's name without its scope where the file gives it apart (op_name of
-- output_op_compute_time_detail_{device}.txt, whose older layout gives no full name); NULL elsewhere.
ALTER TABLE mindspore_aicore_op ADD COLUMN op_name TEXT;
-- Operator type where the file gives it (op_type of output_op_compute_time_detail_{device}.txt); NULL elsewhere.
ALTER TABLE mindspore_aicore_op ADD COLUMN op_type TEXT;
-- Graph the operator belongs to where the file gives it (subgraph: Default, Gradients); NULL elsewhere.
ALTER TABLE mindspore_aicore_op ADD COLUMN subgraph TEXT;

-- 1 when count and total_ns are one step's: each operator of the type counted once at its mean time
-- (MindSpore's older aicore_intermediate_{device}_type.csv, header op_type, and the type section of
-- output_op_compute_time_detail_{device}.txt); NULL when they sum every run of the type's kernels.
ALTER TABLE op_statistic ADD COLUMN per_step INTEGER;

-- From the step's start to the forward pass, in ns (iteration_interval of the data-parallel layout that
-- gives a step's phases, counter cycles of 100 MHz in the file); NULL in the other layouts.
ALTER TABLE mindspore_cluster_step ADD COLUMN iteration_interval_ns INTEGER;
-- Forward and backward pass in ns (fp_and_bp of the same layout).
ALTER TABLE mindspore_cluster_step ADD COLUMN fp_and_bp_ns INTEGER;
-- From the end of the backward pass to the step's end, in ns (tail of the same layout).
ALTER TABLE mindspore_cluster_step ADD COLUMN tail_ns INTEGER;
