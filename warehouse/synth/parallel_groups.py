"""profiler_metadata.json of a planned rank: the parallel groups torch_npu records for it.

torch_npu writes ``parallel_group_info`` (one entry per process group the rank belongs to:
its name, the rank's index in it and the group's global ranks) and Megatron's
``distributed_args`` beside ``profiler_info_{N}.json``. The groups here follow Megatron's order
for a tensor size of 1: the data-parallel groups are runs of consecutive ranks (one per
pipeline stage), the pipeline groups take every ``data_parallel``-th rank.
"""

from __future__ import annotations

import json
from pathlib import Path


def rank_groups(rank: int, pipeline: int, data_parallel: int) -> dict[str, list[int]]:
    """The global ranks of each group ``rank`` belongs to, by group name."""
    stage, index = divmod(rank, data_parallel)
    return {
        "default_group": list(range(pipeline * data_parallel)),
        "dp": [stage * data_parallel + i for i in range(data_parallel)],
        "pp": [s * data_parallel + index for s in range(pipeline)],
        "tp": [rank],
    }


def write_parallel_groups(rank_folder: Path, rank: int, pipeline: int, data_parallel: int) -> None:
    """Write ``rank_folder/profiler_metadata.json`` for ``rank`` of a PP x DP cluster."""
    groups = rank_groups(rank, pipeline, data_parallel)
    document = {
        "distributed_args": {
            "tensor_model_parallel_size": 1, "pipeline_model_parallel_size": pipeline,
            "data_parallel_size": data_parallel, "context_parallel_size": 1,
            "expert_model_parallel_size": 1, "sequence_parallel": False,
            "rank": rank, "world_size": pipeline * data_parallel,
        },
        "parallel_group_info": {
            # torch_npu keys a group by its HCCL communicator name
            f"127.0.0.1%lo_60000_0_{1700000000000000 + number}": {
                "group_name": name, "group_rank": members.index(rank), "global_ranks": members,
            }
            for number, (name, members) in enumerate(groups.items())
        },
    }
    rank_folder.mkdir(parents=True, exist_ok=True)
    (rank_folder / "profiler_metadata.json").write_text(json.dumps(document), encoding="utf-8")
