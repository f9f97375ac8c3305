"""The demo profile: a small cluster run with every input kind the warehouse reads.

``write_inputs(folder)`` lays the files out as the profilers do, so that
``warehouse ingest folder`` meets the same layout as on a real run:

- ranks 0-3 exported as databases (``rank{N}_ascend_pt/ASCEND_PROFILER_OUTPUT/
  ascend_pytorch_profiler_{N}.db``, with torch_npu's ``analysis.db`` beside it); rank 3
  runs its kernels 30 % slower;
- ranks 4-5 exported as text (``trace_view.json`` and ``kernel_details.csv``), so the
  ``kernel`` table holds both exports side by side;
- one operator profile (``operator/visualize_data.bin``) from ``msprof op``.

Each rank folder carries the ``profiler_info_{N}.json`` that names its rank.
"""

from __future__ import annotations

import json
from pathlib import Path

from warehouse.synth.kernel_details import write_kernel_details
from warehouse.synth.op_profile import write_op_profile
from warehouse.synth.rank_db import write_rank
from warehouse.synth.trace_json import write_trace

DB_RANKS = range(0, 4)
TEXT_RANKS = range(4, 6)
#: PYTORCH_API rows per database rank (4 per generated operator step)
API_ROWS = 4000
#: events per text rank's trace_view.json, kernels per kernel_details.csv
TRACE_EVENTS = 4000
KERNELS = 400


def write_text_rank(folder: Path, rank: int) -> None:
    """A torch_npu text export of one rank: trace_view.json, kernel_details.csv, profiler_info."""
    rank_folder = folder / f"rank{rank}_ascend_pt"
    output = rank_folder / "ASCEND_PROFILER_OUTPUT"
    write_trace(output / "trace_view.json", TRACE_EVENTS, seed=1, rank=rank)
    write_kernel_details(output / "kernel_details.csv", KERNELS, seed=rank)
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
        write_rank(folder, rank, API_ROWS // 4)
    for rank in TEXT_RANKS:
        write_text_rank(folder, rank)
    write_op_profile(folder / "operator" / "visualize_data.bin")
    return folder
