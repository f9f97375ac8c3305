"""profiler_metadata.json of a planned rank: the parallel groups torch_npu records for it.

torch_npu writes ``parallel_group_info`` (one entry per process group the rank belongs to:
its name, the rank's index in it and the group's global ranks) and Megatron's
``distributed_args`` beside ``profiler_info_{N}.json``. The demo's groups follow Megatron's
order for a tensor size of 1: the data-parallel groups are runs of consecutive ranks (one per
pipeline stage), the pipeline groups take every ``data_parallel``-th rank.
"""

from __future__ import annotations

import json
from pathlib import Path


def pipeline_groups(pipeline: int, data_parallel: int) -> dict[str, list[list[int]]]:
    """Every group of a PP x DP cluster by name: the global ranks of each group of that name."""
    world = pipeline * data_parallel
    return {
        "default_group": [list(range(world))],
        "dp": [[stage * data_parallel + i for i in range(data_parallel)] for stage in range(pipeline)],
        "pp": [[stage * data_parallel + index for stage in range(pipeline)] for index in range(data_parallel)],
        "tp": [[rank] for rank in range(world)],
    }


def parallel_group_info(rank: int, groups: dict[str, list[list[int]]]) -> dict[str, dict]:
    """``parallel_group_info`` of ``rank``: each group of ``groups`` (name -> the groups' global ranks)
    it belongs to, keyed by a communicator name as torch_npu keys them (one name per group: the
    position of its name and its first rank)."""
    return {
        f"127.0.0.1%lo_60000_0_{number}_{members[0]}": {
            "group_name": name, "group_rank": members.index(rank), "global_ranks": members}
        for number, (name, sets) in enumerate(groups.items())
        for members in sets if rank in members
    }


def write_parallel_groups(rank_folder: Path, rank: int, pipeline: int, data_parallel: int) -> None:
    """Write ``rank_folder/profiler_metadata.json`` for ``rank`` of a PP x DP cluster."""
    document = {
        "distributed_args": {
            "tensor_model_parallel_size": 1, "pipeline_model_parallel_size": pipeline,
            "data_parallel_size": data_parallel, "context_parallel_size": 1,
            "expert_model_parallel_size": 1, "sequence_parallel": False,
            "rank": rank, "world_size": pipeline * data_parallel,
        },
        "parallel_group_info": parallel_group_info(rank, pipeline_groups(pipeline, data_parallel)),
    }
    rank_folder.mkdir(parents=True, exist_ok=True)
    (rank_folder / "profiler_metadata.json").write_text(json.dumps(document), encoding="utf-8")
