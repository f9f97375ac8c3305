"""profiler_info_{rank}.json: the profiler's configuration and start/end info for one rank.

torch_npu writes config, start_info, end_info, rank_id and torch_npu_version; MindSpore
(``mindspore/profiler/common/profiler_info.py``) writes profiler_parameters, ms_profiler_info,
cann_profiler_info, analysis_cost_time and ms_version. Each top-level key becomes a
``run_metadata`` row (JSON for objects); the version field names the run's profiler
(``run_facts.sql``). The file's rank is the source's (``rank`` lists it).
"""

from __future__ import annotations

import re

from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.model.folder_grammar import PROFILER_INFO
from warehouse.sources.kit.numbers import int64, whole
from warehouse.sources.kit.text import insert_metadata, json_head, load_json_object

KIND = "profiler_info_json"
HEAD = re.compile(r'^\{"(config|rank_id|start_info|end_info)":')
#: MindSpore's: its parameters first, then its own start info
MINDSPORE_HEAD = re.compile(r'^\{"profiler_parameters":\{')


def detect(path) -> bool:
    head = json_head(path)
    if MINDSPORE_HEAD.match(head):
        return '"ms_profiler_info"' in head
    return bool(HEAD.match(head)) and ('"common_config"' in head or '"experimental_config"' in head)


def ingest(conn, path, source_id):
    document = load_json_object(path)
    rank_id = _rank(Path(path), document)
    rows = insert_metadata(conn, source_id, rank_id, document)
    return Outcome(rows=rows, rank_id=rank_id, detail={"table": "run_metadata"})


def _rank(path: Path, document: dict) -> int:
    """The rank the document's ``rank_id`` sets, else the file name's, else -1.

    :raises IngestError: naming the file when it is past 64-bit integers.
    """
    rank_id = document.get("rank_id")
    try:
        if isinstance(rank_id, int):
            return int64(rank_id, rank_id)
        match = PROFILER_INFO.match(path.name)
        return whole(match[1]) if match else -1
    except ValueError as exc:
        raise IngestError(f"{path}: rank_id: {exc}") from None
