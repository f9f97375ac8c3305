-- Three more of MindSpore's intermediates (issue 37), each a source of its own, each the same facts as a raw file
-- the warehouse reads already: output_format_data_hwts_{device}.txt, MindSpore's text dump of the HWTS log, gives
-- the device's tasks (mindspore_hwts_task, migration 0029); of one run and device the raw hwts.log.data.45.* file
-- answers them (the fact hwts_task) and the dump only where no raw log is; the audit mindspore_hwts_agrees
-- reconciles the two. output_timeline_data_{device}.txt, MindSpore's own kernel timeline (its join of the dump with
-- the framework description), gives kernels (kernel.origin mindspore_timeline) after every other kernel input, the
-- raw HWTS log with its Framework files included (the fact kernel); the audit mindspore_timeline_agrees reconciles
-- it with the device's HWTS tasks and the raw log's named kernels. aicpu_intermediate_{device}.csv, the AI CPU
-- table MindSpore copies from output_data_preprocess_aicpu_{device}.txt for MindInsight, gives the AI CPU tasks
-- (mindspore_aicpu_op) after the raw file and the text table (the fact aicpu_op); the audit mindspore_aicpu_agrees
-- reconciles both tables with the one that answers.
INSERT INTO fact_precedence (fact, kind, precedence) VALUES
    ('hwts_task', 'mindspore_hwts_raw', 1),
    ('hwts_task', 'mindspore_hwts_txt', 2),
    ('kernel', 'mindspore_timeline_txt', 6),
    ('aicpu_op', 'mindspore_aicpu_csv', 3);

-- Execution time in ns (execution_time of aicpu_intermediate_{device}.csv, ms in the file: MindSpore's run
-- end minus run start); NULL where the input gives none (the raw file, the text table, a six-column CSV).
ALTER TABLE mindspore_aicpu_op ADD COLUMN execution_ns INTEGER;
