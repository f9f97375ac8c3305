-- title: Cluster shape
-- description: Each run's cluster shape and each rank's place in it: whether the run says its
--     parallel groups (run_shape; from profiler_metadata.json's parallel_group_info, else
--     communication_group.json's comm_group_parallel_info, else cluster_analysis.db's
--     CommunicationGroupMapping, else distributed_args' sizes), the
--     sizes of its data-, tensor-, pipeline-, context- and expert-parallel groups, and per rank
--     its pipeline stage, its index in its data- and tensor-parallel groups and the set the
--     cross-rank rules compare it within (rank_place). One row per run and rank; a run that
--     names no rank has one row with rank_id null.
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column shape_known: 1 when the run says its parallel groups or its pipeline size, else 0.
-- column note: What the shape is read from, or that the run does not say it.
-- column ranks: Number of known ranks with an input.
-- column world_size: Number of ranks of the cluster.
-- column dp_size: Data-parallel size, when known.
-- column tp_size: Tensor-parallel size, when known.
-- column pp_size: Pipeline-parallel size (stages), when known.
-- column cp_size: Context-parallel size, when known.
-- column ep_size: Expert-parallel size, when known.
-- column rank_id: Global rank.
-- column stage_id: The rank's pipeline stage, when known.
-- column dp_index: The rank's index in its data-parallel group, when known.
-- column tp_index: The rank's index in its tensor-parallel group, when known.
-- column dp_ranks: The global ranks of its data-parallel group (JSON array), when known.
-- column pp_ranks: The global ranks of its pipeline-parallel group (JSON array), when known.
-- column compared_within: The set the cross-rank rules compare the rank within ('stage N',
--     'unplaced' or 'every rank').
select
    s.run_id, s.shape_known, s.note, s.ranks, s.world_size, s.dp_size, s.tp_size, s.pp_size, s.cp_size, s.ep_size,
    p.rank_id, p.stage_id, p.dp_index, p.tp_index, p.dp_ranks, p.pp_ranks, p.peer_key as compared_within
from run_shape as s
left join rank_place as p on p.run_id = s.run_id
where :run_id is null or s.run_id = :run_id
order by s.run_id, p.rank_id
