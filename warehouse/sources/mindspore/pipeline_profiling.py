"""pipeline_profiling_{device}.json: the MindData monitor's samples of the data pipeline's queues.

MindSpore's data pipeline monitor writes ``{"sampling_interval": ms, "op_info": [...]}``, per
operator its ``op_id``, ``op_type``, ``num_workers``, ``children`` (ids) and ``metrics`` (null, or
``output_queue``: the sampled ``size`` list, the queue's ``length`` and, newer, its
``throughput``). Each operator becomes a ``mindspore_minddata_op`` row with the figures MindSpore's
minddata pipeline parser (mindspore/profiler/parser/minddata_pipeline_parser.py) derives for
``minddata_pipeline_raw_{device}.csv``: the mean queue size and mean over capacity (the usage rate),
and the operator it feeds, the nearest one above it with an output queue (the parser links around
operators without one). Operators without an output queue are kept, with no queue figures: the
parser leaves them out of its CSV, and the ``minddata_op_queue`` view does too.

This raw file answers the pipeline where both it and the CSV are present; the audit
mindspore_minddata_agrees reconciles the CSV with it.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.text import insert_sql, json_head, load_json, to_json
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_pipeline_profiling_json"
NAME = re.compile(r"pipeline_profiling_(\d{1,9})\.json")
HEAD = re.compile(r'^\{"(op_info|sampling_interval)":')
COLUMNS = ("source_id", "source_row", "rank_id", "op_id", "op_type", "num_workers", "parent_op_id", "children_ids",
           "queue_sizes", "queue_average_size", "queue_length", "queue_usage_rate", "sample_interval_ms")
INSERT = insert_sql("mindspore_minddata_op", list(COLUMNS))


def detect(path) -> bool:
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def ingest(conn, path, source_id) -> Outcome:
    rank, device = device_of(path, NAME)
    document = load_json(path, "MAX_SIDECAR_BYTES")
    if not isinstance(document, dict) or not isinstance(document.get("op_info"), list):
        raise IngestError(f"{path}: top level: expected an object with an op_info list")
    interval = _whole(path, "sampling_interval", document.get("sampling_interval"), optional=True)
    operators = [_operator(path, index, item) for index, item in enumerate(document["op_info"])]
    parents = _parents(path, operators)
    rows = [
        (source_id, index + 1, rank, op["op_id"], op["op_type"], op["num_workers"], parents.get(op["op_id"]),
         to_json(op["children"]) if op["children"] else None, *op["queue"], interval)
        for index, op in enumerate(operators)
    ]
    conn.executemany(INSERT, rows)
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail={"table": "mindspore_minddata_op"})


def _operator(path, index: int, item) -> dict:
    """One operator of op_info: its ids, type, workers and queue figures.

    :raises IngestError: naming the operator's place and field when a field has the wrong type.
    """
    place = f"op_info[{index}]"
    if not isinstance(item, dict):
        raise IngestError(f"{path}: {place}: expected an object")
    children = item.get("children") or []
    if not isinstance(children, list):
        raise IngestError(f"{path}: {place}.children: expected a list of operator ids")
    op_type = item.get("op_type")
    if op_type is not None and not isinstance(op_type, str):
        raise IngestError(f"{path}: {place}.op_type: expected text")
    return {
        "op_id": _whole(path, f"{place}.op_id", item.get("op_id")),
        "op_type": op_type,
        "num_workers": _whole(path, f"{place}.num_workers", item.get("num_workers"), optional=True),
        "children": [_whole(path, f"{place}.children[{n}]", child) for n, child in enumerate(children)],
        "queue": _queue(path, place, item.get("metrics")),
    }


def _queue(path, place: str, metrics) -> tuple:
    """(sizes as JSON, mean size, capacity, usage rate) of an operator's output queue; all None without one.

    :raises IngestError: naming the field that is not a list of numbers or not a positive capacity.
    """
    queue = metrics.get("output_queue") if isinstance(metrics, dict) else None
    if not queue:
        return None, None, None, None
    if not isinstance(queue, dict):
        raise IngestError(f"{path}: {place}.metrics.output_queue: expected an object")
    sizes = queue.get("size")
    if not isinstance(sizes, list) or not all(_is_number(size) for size in sizes):
        raise IngestError(f"{path}: {place}.metrics.output_queue.size: expected a list of numbers")
    length = _whole(path, f"{place}.metrics.output_queue.length", queue.get("length"))
    if length <= 0:
        raise IngestError(f"{path}: {place}.metrics.output_queue.length: expected a capacity above 0, found {length}")
    average = float(sum(Decimal(size) for size in sizes) / len(sizes)) if sizes else None
    return to_json(sizes), average, length, None if average is None else average / length


def _parents(path, operators: list[dict]) -> dict[int, int]:
    """The operator each one feeds: the nearest operator above it that has an output queue, or operator 0
    (MindSpore's parser walks down from operator 0, the root, and links around operators without a queue).

    :raises IngestError: when an operator is listed as the child of two.
    """
    above: dict[int, int] = {}
    for op in operators:
        for child in op["children"]:
            if above.setdefault(child, op["op_id"]) != op["op_id"]:
                raise IngestError(f"{path}: op_info: operator {child} is the child of {above[child]} and {op['op_id']}")
    queued = {op["op_id"] for op in operators if op["queue"][2] is not None} | {0}
    parents = {}
    for op_id in above.keys() - {0}:  # operator 0 is the root, whatever lists it
        parent, seen = above[op_id], {op_id}
        while parent not in queued and parent in above and parent not in seen:
            seen.add(parent)
            parent = above[parent]
        if parent in queued:
            parents[op_id] = parent
    return parents


def _is_number(value) -> bool:
    return isinstance(value, (int, Decimal)) and not isinstance(value, bool)


def _whole(path, place: str, value, optional: bool = False) -> int | None:
    """A whole number of the file.

    :raises IngestError: naming ``place`` when it is missing (unless ``optional``) or not a whole number.
    """
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 1 << 63:
        raise IngestError(f"{path}: {place}: expected a whole number, found {str(value)[:40]!r}")
    return value
