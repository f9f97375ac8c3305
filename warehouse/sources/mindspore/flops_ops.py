"""flops_{device}.txt: MindSpore's floating-point work per AI Core operator of one device.

MindSpore's flops parser (mindspore/profiler/parser/flops_parser.py) writes a header line and a line
per operator, fields separated by ``", "``: its full name, its MFLOPs per run, GFLOPS and utilization
of the device's peak in percent (headers ``op_full_name, MFLOPs(10^6), GFLOPS(10^9), FLOPS
utilization(%)``, in older files ``full_kernel_name, FLOPs, FLOPS, FLOPS utilization``); a newer
layout splits each figure into the cube's and the vector's (``MFLOPs(10^6 cube)`` ...
``FLOPS utilization(vec)``). Each operator is one ``mindspore_flops_op`` row, the split layout's
cube and vector added up. flops_summary_{device}.json sums them up (the audit mindspore_flops_agree).
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.text import insert_sql, real
from warehouse.sources.mindspore.device import device_of, named_text
from warehouse.sources.mindspore.framework import lines

KIND = "mindspore_flops_txt"
NAME = re.compile(r"flops_(\d{1,9})\.txt")
NAMES = ("op_full_name", "full_kernel_name")
INSERT = insert_sql("mindspore_flops_op", ["source_id", "source_row", "rank_id", "full_name", "mflops", "gflops_per_s",
                                           "utilization_pct", "cube_mflops", "vector_mflops",
                                           "vector_utilization_pct"])


def detect(path) -> bool:
    return named_text(path, (NAME,), lambda first: first.split(",")[0].strip() in NAMES)


def ingest(conn, path, source_id) -> Outcome:
    rank, device = device_of(path, NAME)
    rows = []
    width = None
    for number, text in lines(Path(path)):
        fields = [field.strip() for field in text.split(",")]
        if width is None:
            if fields[0] not in NAMES or len(fields) not in (4, 7):
                raise IngestError(f"{path}: line {number}: expected the header of 4 or 7 fields, found {text[:80]!r}")
            width = len(fields)
            continue
        if len(fields) != width:
            raise IngestError(f"{path}: line {number}: {len(fields)} fields for a header of {width}")
        try:
            rows.append((source_id, len(rows) + 1, rank, fields[0], *_figures([real(field) for field in fields[1:]])))
        except ValueError as exc:
            raise IngestError(f"{path}: line {number}: {exc}") from None
    conn.executemany(INSERT, rows)
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail={"table": "mindspore_flops_op"})


def _figures(values: list) -> tuple:
    """(MFLOPs, GFLOPS, utilization, cube MFLOPs, vector MFLOPs, vector utilization) of an operator's figures."""
    if len(values) == 3:
        return (*values, None, None, None)
    cube, cube_rate, cube_use, vector, vector_rate, vector_use = values
    return _sum(cube, vector), _sum(cube_rate, vector_rate), cube_use, cube, vector, vector_use


def _sum(first, second):
    return None if first is None or second is None else first + second
