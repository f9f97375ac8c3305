"""output_op_compute_time_detail_{device}.txt: MindSpore's older AI Core tables per operator type and per operator.

MindSpore's first profiler (mindinsight/profiler/profiling.py before it moved to MindSpore, MindInsight's
run_1 and run_2 resources) printed its analysis into it: the title ``====================op compute
time====================``, the table per operator type (``optype_name``, ``compute_time(ms,
per-step)``, ``called_times(per-step)``, ``percent``: the aicore_type analyser's rows, the sum of
the type's operators' mean times and their number), then, with ``is_detail``, ``Detail:`` and the
table per operator (``op_name``, ``op_type``, ``avg_execution_time`` in ms, ``subgraph`` and, in the
later layout, ``full_op_name``). run_1's tables are tabulate's (columns aligned, a line of dashes under
each header), run_2's one space between fields. Its title is written without truncating the file, so
each analysis of the folder is appended to the ones before (run_1's holds three): the last is the
folder's, the one the other intermediates of that analysis (rewritten each time) agree with, and the
only one stored (the earlier ones are read, and a bad line fails the file all the same).

The types go to ``op_statistic`` (core type AI_CORE, ``per_step``; fact aicore_type: the type CSV
answers before it, audit mindspore_aicore_types_agree), the operators to ``mindspore_aicore_op`` with
their name, type and subgraph (fact aicore_op, after the detail CSV and output_op_compute_time; audit
mindspore_aicore_ops_agree), each row numbered by its line. A line that is not where the layout has it
fails the file naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.text import insert_sql, integer, ms_to_ns, real
from warehouse.sources.mindspore.device import device_of, named_text
from warehouse.sources.mindspore.framework import lines
from warehouse.sources.mindspore.op_compute_time import TITLE

KIND = "mindspore_op_compute_detail_txt"
NAME = re.compile(r"output_op_compute_time_detail_(\d{1,9})\.txt")
#: the type table's header, its spaces squeezed
TYPE_HEADER = "optype_name compute_time(ms, per-step) called_times(per-step) percent"
DETAIL = "Detail:"
#: the operator table's header words (the later layout adds full_op_name)
OP_HEADER = ["op_name", "op_type", "avg_execution_time", "subgraph"]
TYPE_INSERT = insert_sql("op_statistic", ["source_id", "source_row", "rank_id", "op_type", "core_type", "total_ns",
                                          "count", "ratio_pct", "per_step"])
OP_INSERT = insert_sql("mindspore_aicore_op", ["source_id", "source_row", "rank_id", "op_name", "op_type", "time_ns",
                                               "subgraph", "full_name"])


def detect(path) -> bool:
    """MindSpore's file name, and the title first."""
    return named_text(path, (NAME,), lambda line: line == TITLE)


def analyses(path: Path) -> list[tuple[list[tuple], list[tuple]]]:
    """Every analysis of the file, in file order: its types (line, type, ns, count, percent) and its operators
    (line, name, type, ns, subgraph, full name or None).

    :raises IngestError: naming the first line that is not where the layout has it, or whose figures do
        not read.
    """
    found: list[tuple[list[tuple], list[tuple]]] = []
    expect, under_header, width = "title", False, 0
    for number, text in lines(path):
        fields = text.split()
        if text == TITLE:
            found.append(([], []))
            expect, under_header = "types header", False
            continue
        if expect == "title":
            raise IngestError(f"{path}: line {number}: expected {TITLE!r}, found {text[:80]!r}")
        if under_header and set(text) <= set("- "):
            under_header = False  # tabulate's dashes under a header
            continue
        under_header = False
        if expect == "types header" and " ".join(fields) == TYPE_HEADER:
            expect, under_header, width = "types", True, 4
        elif expect == "operators header" and fields in (OP_HEADER, [*OP_HEADER, "full_op_name"]):
            expect, under_header, width = "operators", True, len(fields)
        elif expect.endswith("header"):
            raise IngestError(f"{path}: line {number}: expected the {expect}, found {text[:80]!r}")
        elif expect == "types" and text == DETAIL:
            expect = "operators header"
        elif expect == "types":
            found[-1][0].append((number, *_converted(path, number, fields, width, _op_type)))
        else:
            found[-1][1].append((number, *_converted(path, number, fields, width, _operator)))
    return found


def _op_type(fields: list[str]) -> tuple:
    """(type, ns, count, percent) of a type line."""
    return fields[0], ms_to_ns(fields[1]), integer(fields[2]), real(fields[3])


def _operator(fields: list[str]) -> tuple:
    """(name, type, ns, subgraph, full name or None) of an operator line."""
    return fields[0], fields[1], ms_to_ns(fields[2]), fields[3], fields[4] if len(fields) == 5 else None


def _converted(path, number: int, fields: list[str], width: int, convert) -> tuple:
    """``convert(fields)`` of a line of ``width`` fields.

    :raises IngestError: naming the line when it has other fields or a figure does not read.
    """
    try:
        if len(fields) != width:
            raise ValueError(f"{len(fields)} fields for a header of {width}")
        return convert(fields)
    except ValueError as exc:
        raise IngestError(f"{path}: line {number}: {exc}") from None


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the last analysis's types and operators (module doc)."""
    rank, device = device_of(path, NAME)
    found = analyses(Path(path))
    types, operators = found[-1] if found else ([], [])
    multirow.insert_rows(conn, TYPE_INSERT, ((source_id, line, rank, op_type, "AI_CORE", ns, count, percent, 1)
                                             for line, op_type, ns, count, percent in types))
    multirow.insert_rows(conn, OP_INSERT, ((source_id, line, rank, *operator) for line, *operator in operators))
    return Outcome(rows=len(types) + len(operators), rank_id=rank, device_id=device,
                   detail={"table": "op_statistic", "analyses": len(found), "types": len(types),
                           "operators": len(operators)})
