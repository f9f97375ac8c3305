"""The demo profile: a small cluster run with every input kind the warehouse reads.

``write_inputs(folder)`` lays the files out as the profilers do, so that
``warehouse ingest folder`` meets the same layout as on a real run. Its six ranks follow one
plan (``warehouse.synth.plan``: 8 steps, an allReduce in each, every clock on the same epoch),
with problems planted that the first views show:

- rank 3 runs its kernels 1.5x longer: its steps take about 1.3x the others', and in every
  allReduce the other ranks wait for it (their Notify Wait);
- rank 1 is host-bound in step 5: its device idles 120 us while the host launches;
- rank 2 reserves 61.5 GiB of device memory, 96 % of a 910B's 64 GiB;
- ranks 0-3 are exported as databases (``rank{N}_ascend_pt/ASCEND_PROFILER_OUTPUT/
  ascend_pytorch_profiler_{N}.db``, with torch_npu's ``analysis.db`` beside it), ranks 4-5 as
  text (``trace_view.json`` and ``kernel_details.csv``), so the ``kernel`` table holds both
  exports side by side;
- one operator profile (``operator/visualize_data.bin``) from ``msprof op``.

Each rank folder carries the ``profiler_info_{N}.json`` that names its rank and the
``profiler_metadata.json`` that places it in the cluster: pipeline-parallel 2 x data-parallel 3
(stage 0 is ranks 0-2, stage 1 ranks 3-5), so rank 3 is compared with its stage's peers 4 and 5.
"""

from __future__ import annotations

import json
from pathlib import Path

from warehouse.synth.kernel_details import write_planned_kernel_details
from warehouse.synth.op_profile import write_op_profile
from warehouse.synth.parallel_groups import write_parallel_groups
from warehouse.synth.plan import UNITS_PER_STEP, rank_plan
from warehouse.synth.rank_db import write_rank
from warehouse.synth.trace_json import write_planned_trace

DB_RANKS = range(0, 4)
TEXT_RANKS = range(4, 6)
STEPS = 8
#: the cluster's shape: pipeline stages x data-parallel ranks per stage
PIPELINE, DATA_PARALLEL = 2, 3
#: operators per rank (4 PYTORCH_API rows each in a rank db)
UNITS = STEPS * UNITS_PER_STEP


def write_text_rank(folder: Path, rank: int) -> None:
    """A torch_npu text export of one rank: trace_view.json, kernel_details.csv, profiler_info."""
    rank_folder = folder / f"rank{rank}_ascend_pt"
    output = rank_folder / "ASCEND_PROFILER_OUTPUT"
    steps, units = rank_plan(rank, UNITS)
    write_planned_trace(output / "trace_view.json", rank, steps, units)
    write_planned_kernel_details(output / "kernel_details.csv", steps, units)
    document = {
        "config": {
            "common_config": {"activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"], "record_shapes": True},
            "experimental_config": {"_profiler_level": "Level1", "_export_type": "text"},
        },
        "start_info": {"syscnt_enable": True, "freq": 100},
        "end_info": {},
        "rank_id": rank,
    }
    (rank_folder / f"profiler_info_{rank}.json").write_text(json.dumps(document, indent=4), encoding="utf-8")


def write_inputs(folder: Path) -> Path:
    """Write the demo cluster's files under ``folder`` (created if needed); returns ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for rank in DB_RANKS:
        write_rank(folder, rank, UNITS)
    for rank in TEXT_RANKS:
        write_text_rank(folder, rank)
    for rank in (*DB_RANKS, *TEXT_RANKS):
        write_parallel_groups(folder / f"rank{rank}_ascend_pt", rank, PIPELINE, DATA_PARALLEL)
    write_op_profile(folder / "operator" / "visualize_data.bin")
    return folder
