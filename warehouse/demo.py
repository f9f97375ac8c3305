"""The demo profile: a small cluster run written by the generators of ``warehouse.synth``.

``write_inputs(folder)`` lays the files out as torch_npu does for each rank
(``rank{N}_ascend_pt/ASCEND_PROFILER_OUTPUT/...`` with ``profiler_info_{N}.json`` beside
it), so that ``warehouse ingest folder`` meets the same layout as on a real run. Each
format adds one writer to ``WRITERS``: a function ``(rank_folder, rank) -> None``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from warehouse.synth.trace_json import write_trace

#: ranks of the demo cluster
RANKS = 2
#: events per rank's trace_view.json
TRACE_EVENTS = 4000


def write_trace_view(rank_folder: Path, rank: int) -> None:
    """A torch_npu ``trace_view.json`` for the rank (the same seed, so ranks differ only by their rank)."""
    write_trace(rank_folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json", TRACE_EVENTS, seed=1, rank=rank)


def write_profiler_info(rank_folder: Path, rank: int) -> None:
    """The ``profiler_info_{rank}.json`` torch_npu writes beside its outputs: it names the rank."""
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


#: what a rank's folder holds; each writer takes (rank folder, rank)
WRITERS: list[Callable[[Path, int], None]] = [write_trace_view, write_profiler_info]


def write_inputs(folder: Path) -> Path:
    """Write the demo cluster's files under ``folder`` (created if needed); returns ``folder``."""
    folder = Path(folder)
    for rank in range(RANKS):
        rank_folder = folder / f"rank{rank}_ascend_pt"
        rank_folder.mkdir(parents=True, exist_ok=True)
        for writer in WRITERS:
            writer(rank_folder, rank)
    return folder
