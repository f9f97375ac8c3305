"""framework_raw_{device}.csv: MindSpore's table of each device task and its operator.

MindSpore's framework parser (framework_parser.py) writes it from the Framework host files, a
record per task: ``task_id``, ``stream_id``, ``block_dim``, the operator's full name
(``full_kernel_name``; ``full_op_name`` in later versions), its own name, its type (``kernel_type``;
``op_type`` later), its subgraph and ``op_info``, a JSON object of its tensors
(``{"input_0": {"format", "data_type", "shape"}, ..., "output_0": ...}``). Each record is a row of
``mindspore_framework_task`` and each operator (its first record) one of ``mindspore_framework_op``,
the tables the host files' own sources fill: where both are in a run, those answer and the audit
``mindspore_framework_agrees`` reconciles this file with them. The device is the number in the file
name. A record that is short, or whose number or ``op_info`` does not read, fails the file naming
its line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import has_headers, insert_sql, open_records
from warehouse.sources.mindspore.device import device_of
from warehouse.sources.mindspore.framework import Operator

KIND = "mindspore_framework_raw_csv"
NAME = re.compile(r"framework_raw_(\d{1,9})\.csv")
REQUIRED = frozenset({"task_id", "stream_id", "block_dim", "subgraph", "op_info"})
#: (the column, its headers: MindInsight's era first, then MindSpore's later one)
NAMES = (("full_name", ("full_kernel_name", "full_op_name")), ("op_type", ("kernel_type", "op_type")))
TASKS = insert_sql("mindspore_framework_task",
                   ["source_id", "source_row", "rank_id", "task_id", "stream_id", "block_dim", "op_name"])
OPS = insert_sql("mindspore_framework_op",
                 ["source_id", "source_row", "rank_id", "op_name", "op_type", "input_shapes", "input_dtypes",
                  "input_formats", "output_shapes", "output_dtypes", "output_formats"])
TENSOR = re.compile(r"(input|output)_(\d{1,9})")


def detect(path) -> bool:
    """MindSpore's file name and header."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and has_headers(path, REQUIRED)


def tensors(text: str) -> tuple[dict, dict]:
    """The inputs and outputs an ``op_info`` object describes, by tensor number.

    :raises ValueError: when it is not such an object.
    """
    try:
        info = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"op_info is not JSON ({exc.msg}, column {exc.colno})") from None
    if not isinstance(info, dict):
        raise ValueError("op_info is not a JSON object")
    found = ({}, {})
    for key, tensor in info.items():
        match = TENSOR.fullmatch(key)
        if match is None or not isinstance(tensor, dict):
            raise ValueError(f"op_info: {key[:40]!r} is not an input_N or output_N object")
        found[match[1] == "output"][int(match[2])] = {name: str(value) for name, value in tensor.items()}
    return found


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the file's tasks and operators (module doc)."""
    rank, device = device_of(path, NAME)
    tasks, operators = [], {}
    with open_records(path) as records:
        where = {name: records.header.index(name) for name in REQUIRED}
        for column, headers in NAMES:
            where[column] = next((records.header.index(name) for name in headers if name in records.header), None)
        if where["full_name"] is None:
            raise IngestError(f"{path}: line 1: no full_kernel_name (or full_op_name) column")
        for number, line, row, short in records:
            if short:
                raise IngestError(f"{path}: line {line}: {len(row)} fields for a header of {len(records.header)}")
            try:
                task_id, stream_id, block_dim = (whole(row[where[name]]) for name in ("task_id", "stream_id",
                                                                                        "block_dim"))
                name = row[where["full_name"]]
                if name not in operators:
                    op_type = row[where["op_type"]] if where["op_type"] is not None else None
                    operators[name] = (number, Operator(name, block_dim, op_type or None,
                                                        tensors(row[where["op_info"]])))
            except ValueError as exc:
                raise IngestError(f"{path}: line {line}: {exc}") from None
            tasks.append((source_id, number, rank, task_id, stream_id, block_dim, name))
    multirow.insert_rows(conn, TASKS, tasks)
    multirow.insert_rows(conn, OPS, ((source_id, number, rank, name, operator.op_type, *operator.tensor_columns())
                                     for name, (number, operator) in operators.items()))
    detail = {"tables": ["mindspore_framework_task", "mindspore_framework_op"], "tasks": len(tasks),
              "operators": len(operators)}
    return Outcome(rows=len(tasks) + len(operators), rank_id=rank, device_id=device, detail=detail)
