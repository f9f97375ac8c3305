-- MindSpore's auto-parallel strategy files (issue 37): parallel_strategy_{rank}.json, each rank's graph
-- with its parallel config and every operator's shard strategy, which MindInsight's parallel strategy
-- analyser reads into its parallel strategy view; and the marey graph of a pipeline-parallel step
-- (ascend_marey_timeline_{step}.json, MindInsight's answer its test resources keep) with the operators'
-- scopes beside it (scope_map_{step}.json).

-- The parallel config of one rank's strategy file (its config object).
CREATE TABLE mindspore_parallel_config (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Always 1 (one config a file).
    source_row INTEGER,
    -- The rank (config.rankId).
    rank_id INTEGER,
    -- The pipeline stage of the rank (config.stageId, from 0).
    stage_id INTEGER,
    -- The parallel mode (config.parallelType: auto_parallel, semi_auto_parallel...).
    parallel_type TEXT,
    -- The stage's devices as a JSON list of numbers (config.stageDevices' dim sizes, in order).
    stage_devices TEXT
);
CREATE INDEX mindspore_parallel_config_source ON mindspore_parallel_config (source_id);

-- One operator of one rank's strategy file (a named node of graph.node) and its shard strategy.
CREATE TABLE mindspore_parallel_operator (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The node's place among the file's named nodes, from 1.
    source_row INTEGER,
    -- The rank (config.rankId).
    rank_id INTEGER,
    -- The node's name in its graph (name, a number as text).
    node_name TEXT NOT NULL,
    -- The operator's full name (fullName: scope/type-opN).
    full_name TEXT NOT NULL,
    -- The operator type (opType).
    op_type TEXT,
    -- The operator's scope (scope).
    scope TEXT,
    -- The instance name (instanceName; grad_mirror or redistribution marks an inserted operator; '' else).
    instance_name TEXT,
    -- The shard strategy as JSON (the gen_strategy attribute: one list of splits per input); NULL when none.
    strategy TEXT,
    -- The communication group (the group attribute as text); NULL when none.
    parallel_group TEXT
);
CREATE INDEX mindspore_parallel_operator_source ON mindspore_parallel_operator (source_id);

-- One operator's span on one device in MindInsight's marey graph of a step (maps of
-- ascend_marey_timeline_{step}.json). Times as written: us on the devices' clocks aligned on their first
-- AllReduce, so they are positions in the graph, not clock times.
CREATE TABLE mindspore_marey_span (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The span's place in the file (device after device), from 1.
    source_row INTEGER,
    -- The step (the number in the file name).
    step INTEGER,
    -- The device (the number of its deviceN key).
    rank_id INTEGER,
    -- The operator (its op-numbered name, e.g. Conv2D-op1547).
    op_name TEXT NOT NULL,
    -- The span's start in aligned us (st).
    start_us REAL,
    -- The span's end in aligned us (ed).
    end_us REAL,
    -- The span's length in us (dur).
    dur_us REAL
);
CREATE INDEX mindspore_marey_span_source ON mindspore_marey_span (source_id);

-- One device of one stage of a marey graph (stage_data's devices: the devices MindInsight's alignment
-- grouped into a pipeline stage).
CREATE TABLE mindspore_marey_stage (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The device's place among the stages' devices, from 1.
    source_row INTEGER,
    -- The step (the number in the file name).
    step INTEGER,
    -- The stage (the number of its stageN key, from 0).
    stage_id INTEGER,
    -- The device (the number of its deviceN name).
    rank_id INTEGER
);
CREATE INDEX mindspore_marey_stage_source ON mindspore_marey_stage (source_id);

-- One operator's scope (scope_map_{step}.json, beside the marey graph of the step).
CREATE TABLE mindspore_scope_map (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The entry's place in scope_map, from 1.
    source_row INTEGER,
    -- The step (the number in the file name).
    step INTEGER,
    -- The operator (its op-numbered name).
    op_name TEXT NOT NULL,
    -- Its name scope as written ('' when it has none).
    scope TEXT
);
CREATE INDEX mindspore_scope_map_source ON mindspore_scope_map (source_id);
