-- MindSpore's auto-parallel strategy files (issue 37): parallel_strategy_{rank}.json, each rank's graph
-- with its parallel config and every operator's shard strategy, which MindInsight's parallel strategy
-- analyser reads into its parallel strategy view.

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
