"""MindSpore's current layout, byte for byte: a ``{worker}_ascend_ms`` rank folder holding
ASCEND_PROFILER_OUTPUT with torch_npu's exports under MindSpore's names, beside MindSpore's
``profiler_info_{rank}.json`` and ``profiler_metadata.json``.

MindSpore (``mindspore/python/mindspore/profiler/``) writes the same text and db exports as
torch_npu; only the db's name (``ascend_mindspore_profiler_{rank}.db``) and the sidecars differ:
its profiler_info holds profiler_parameters, ms_profiler_info, cann_profiler_info,
analysis_cost_time and ms_version (``common/profiler_info.py``, indent 4), its metadata the
parallel_group_info (``common/profiler_meta_data.py``). The exports are the torch_npu factories'.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from tests.factories.rank_db import RankDbFactory
from tests.factories.text_exports import CsvFile, KernelDetailsFactory, ProfilerMetadataFactory, StepTraceTimeFactory
from tests.factories.trace_json import TraceFileFactory

VERSION = "2.5.0"
OUTPUT = "ASCEND_PROFILER_OUTPUT"


def profiler_info(rank: int, version: str = VERSION) -> dict:
    """The document MindSpore's ProfilerInfo saves for ``rank``."""
    return {
        "profiler_parameters": {"output_path": "./data", "profiler_level": "Level0", "activities": ["CPU", "NPU"],
                                "with_stack": False, "profile_memory": False, "data_simplification": True,
                                "export_type": ["text"], "rank_id": rank},
        "ms_profiler_info": {"start_collect_syscnt": 17238197612056, "start_collect_clock_time": 1736408883700000000},
        "cann_profiler_info": {},
        "analysis_cost_time": {"parse_data": 1.25},
        "ms_version": version,
    }


def rank_folder(run: Path, rank: int, version: str = VERSION) -> Path:
    """``run/rank{rank}_ascend_ms`` with its sidecars written; the folder."""
    folder = Path(run) / f"rank{rank}_ascend_ms"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"profiler_info_{rank}.json").write_text(json.dumps(profiler_info(rank, version), indent=4),
                                                      encoding="utf-8")
    ProfilerMetadataFactory(path=folder / "profiler_metadata.json", document={"parallel_group_info": {
        "hccl_world_group": {"group_name": "hccl_world_group", "group_rank": rank, "global_ranks": [0, 1]}}})
    return folder


class TextRank(NamedTuple):
    """A written text export: its output folder and the two CSVs as written."""

    output: Path
    kernels: CsvFile
    steps: CsvFile


def text_rank(run: Path, rank: int, version: str = VERSION) -> TextRank:
    """A rank exported as text: kernel_details.csv, step_trace_time.csv and trace_view.json."""
    output = rank_folder(run, rank, version) / OUTPUT
    kernels = KernelDetailsFactory(path=output / "kernel_details.csv")
    steps = StepTraceTimeFactory(path=output / "step_trace_time.csv")
    TraceFileFactory(path=output / "trace_view.json")
    return TextRank(output, kernels, steps)


def db_rank(run: Path, rank: int, version: str = VERSION):
    """A rank exported as a db, ``ascend_mindspore_profiler_{rank}.db``; the factory's RankDb."""
    output = rank_folder(run, rank, version) / OUTPUT
    return RankDbFactory(path=output / f"ascend_mindspore_profiler_{rank}.db", rank_id=rank)
