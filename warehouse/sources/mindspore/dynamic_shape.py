"""dynamic_shape_info_{device}.json: each operator (and GPU kernel) run of a dynamic-shape graph, per step.

MindSpore's profiler writes, per step number: ``operator``, a list of operator runs (``step``,
``op_side``, ``op_type``, ``op_name``, ``dur`` in us, ``shape_info``: its inputs' shapes), and on GPU
``kernel``, the kernels they launched (``op_type``, ``op_name`` the kernel, ``op_full_name`` its
operator, ``dur``, ``block_dim``, ``grid_dim``); MindInsight's dynamic shape analysers
(gpu_op_type_info, gpu_cuda_type_info) show them. Each run is a row of ``mindspore_dynamic_shape_op``
(``record`` operator or kernel, times in ns). ``operator_type`` and ``kernel_type`` are the per-step
total, count and mean of each type's runs of those lists: a query computes them from the rows, so
they are not kept (``source.detail`` says so). The device is the number in the file name. A run that
is not such an object fails naming its place.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import INT64_MAX
from warehouse.sources.kit.text import insert_sql, json_head, load_json
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_dynamic_shape_json"
NAME = re.compile(r"dynamic_shape_info_(\d{1,9})\.json")
HEAD = re.compile(r'^\{ ?"(operator|kernel|operator_type|kernel_type)":')
#: the lists of runs, in the order they are read
RECORDS = ("operator", "kernel")
#: the per-step summaries of those lists (not kept)
SUMMARIES = ("operator_type", "kernel_type")
TEXT_FIELDS = ("op_side", "op_type", "op_name", "op_full_name", "block_dim", "grid_dim")
NS_PER_US = 1000
INSERT = insert_sql("mindspore_dynamic_shape_op",
                    ["source_id", "source_row", "rank_id", "record", "step_id", *TEXT_FIELDS, "dur_ns", "shapes"])


def detect(path) -> bool:
    """MindSpore's file name and an object of its keys."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def run_row(place: str, run) -> tuple:
    """(step, *TEXT_FIELDS, dur ns, shapes as JSON) of one run.

    :raises IngestError: naming ``place`` when the run is not an object of those fields.
    """
    if not isinstance(run, dict):
        raise IngestError(f"{place}: expected an object")
    step, dur, shapes = run.get("step"), run.get("dur"), run.get("shape_info")
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= INT64_MAX:
        raise IngestError(f"{place}.step: expected a step number, found {str(step)[:40]!r}")
    if isinstance(dur, bool) or not isinstance(dur, (int, Decimal)) or not 0 <= dur * NS_PER_US <= INT64_MAX:
        raise IngestError(f"{place}.dur: expected a duration in us, found {str(dur)[:40]!r}")
    texts = [run.get(name) for name in TEXT_FIELDS]
    if any(value is not None and not isinstance(value, str) for value in texts):
        raise IngestError(f"{place}: expected text in {', '.join(TEXT_FIELDS)}")
    if shapes is not None and not (isinstance(shapes, list) and all(isinstance(shape, str) for shape in shapes)):
        raise IngestError(f"{place}.shape_info: expected a list of shapes")
    return (step, *texts, round(dur * NS_PER_US), None if shapes is None else json.dumps(shapes))


def ingest(conn, path, source_id) -> Outcome:
    """Insert the file's operator and kernel runs (module doc)."""
    rank, device = device_of(path, NAME)
    document = load_json(path)
    if not isinstance(document, dict):
        raise IngestError(f"{path}: top level: expected an object")
    rows = []
    for record in RECORDS:
        steps = document.get(record, {})
        if not isinstance(steps, dict) or not all(isinstance(runs, list) for runs in steps.values()):
            raise IngestError(f"{path}: {record}: expected an object of lists per step")
        for key, runs in steps.items():
            for index, run in enumerate(runs):
                rows.append((source_id, len(rows) + 1, rank, record, *run_row(f"{path}: {record}.{key}[{index}]", run)))
    multirow.insert_rows(conn, INSERT, rows)
    detail = {"table": "mindspore_dynamic_shape_op", "not_kept": [name for name in SUMMARIES if name in document]}
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail=detail)
