"""profiler_info_{rank}.json as MindSpore's profiler wrote it before its profiler_parameters layout: a rank's place.

MindSpore's profiler (its ``ProfilerInfo``) writes a flat object beside the rank's profiler files:
``context_mode`` (graph or pynative), ``rank_id`` (a string), ``rank_size``, ``parallel_mode``
(MindSpore's context name: stand_alone, data_parallel, semi_auto_parallel, auto_parallel, ...),
``stage_num`` (pipeline stages), then the times the profiling stopped and its analysis ended and the
graphs it ran (MindInsight's resources: parallel_strategy/profiler_info_0.json; its profile API reads
``context_mode`` and ``is_heterogeneous``). Each top-level key is a ``run_metadata`` row, as the
other profiler_info's (:mod:`warehouse.sources.profiler_info`, whose newer MindSpore layout names its
version); the view ``parallel_size`` reads the rank size and stages as the run's shape. The rank is the
document's ``rank_id``, else the file name's. A rank that is not a number fails naming the key.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.model.folder_grammar import PROFILER_INFO
from warehouse.sources.base import Outcome
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_metadata, json_head, load_json_object

KIND = "mindspore_profiler_info_json"
#: the keys of the cluster's shape, each of which the file has
SHAPE_KEYS = ('"rank_size":', '"parallel_mode":', '"stage_num":')
HEAD = re.compile(r'^\{"[a-z_]{1,40}":')


def detect(path) -> bool:
    """The file name, and a flat object with the shape's keys (no ``profiler_parameters``: the newer layout's)."""
    if PROFILER_INFO.match(Path(path).name) is None:
        return False
    head = json_head(path)
    return HEAD.match(head) is not None and '"profiler_parameters":' not in head and all(
        key in head for key in SHAPE_KEYS)


def ingest(conn, path, source_id) -> Outcome:
    """Insert each key's value (module doc)."""
    document = load_json_object(path)
    rank_id = rank_of(Path(path), document)
    rows = insert_metadata(conn, source_id, rank_id, document)
    return Outcome(rows=rows, rank_id=rank_id, detail={"table": "run_metadata"})


def rank_of(path: Path, document: dict) -> int:
    """The document's ``rank_id`` (a number or a string of one), else the file name's.

    :raises IngestError: naming the key when it is neither.
    """
    rank_id = document.get("rank_id", PROFILER_INFO.match(path.name)[1])
    try:
        if isinstance(rank_id, bool) or not isinstance(rank_id, (int, str)):
            raise ValueError(f"expected a rank number, found {str(rank_id)[:40]!r}")
        return whole(str(rank_id))
    except ValueError as exc:
        raise IngestError(f"{path}: rank_id: {exc}") from None
