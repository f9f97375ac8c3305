"""output_op_compute_time_{device}.txt: MindSpore's older table of each AI Core operator's mean time.

The operator time parser of MindSpore's first profiler (mindinsight/profiler/parser/optime_parser.py
before it moved to MindSpore, MindInsight's run_1 and run_2 resources) wrote it from the HWTS log and the
framework files: the title ``====================op compute time====================``, a header
``op_name       compute_time(ms) stream_id`` and a line of dashes, then per operator its full name,
its mean time over its runs (ms, as Python prints a float) and its stream, separated by spaces, and
last ``total op  {sum of the means} 0``. MindInsight's integrator copied the operators and times into
aicore_intermediate_{device}_detail.csv, which answers where both are (fact aicore_op; the audit
mindspore_aicore_ops_agree reconciles them): each operator is a row of ``mindspore_aicore_op`` with its
stream and no count, the total goes to ``source.detail``. A line of other fields, or one after the
total, fails the file naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_sql, ms_to_ns
from warehouse.sources.mindspore.device import device_of, named_text, table_rows

KIND = "mindspore_op_compute_time_txt"
NAME = re.compile(r"output_op_compute_time_(\d{1,9})\.txt")
#: the title line every table of the older profiler starts with
TITLE = "====================op compute time===================="
#: the header line, its words
HEADER = ("op_name", "compute_time(ms)", "stream_id")
TOTAL = "total op"
INSERT = insert_sql("mindspore_aicore_op", ["source_id", "source_row", "rank_id", "full_name", "time_ns", "stream_id"])


def detect(path) -> bool:
    """MindSpore's file name, and the title first."""
    return named_text(path, (NAME,), lambda line: line == TITLE)


def read(path: Path) -> tuple[list[tuple], str | None]:
    """(full name, mean ns, stream) of every operator, and the total line's sum as written (None when the file
    has none).

    :raises IngestError: naming the line that is not the title, the header, the dashes, an operator of its
        three fields or the total.
    """
    rows, total = table_rows(path, (TITLE, " ".join(HEADER), None), TOTAL, len(HEADER),
                             lambda fields: (fields[0], ms_to_ns(fields[1]), whole(fields[2])))
    return rows, total.split()[0] if total else total


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the table's operators (module doc)."""
    rank, device = device_of(path, NAME)
    rows, total = read(Path(path))
    multirow.insert_rows(conn, INSERT, ((source_id, number, rank, *row) for number, row in enumerate(rows, 1)))
    return Outcome(rows=len(rows), rank_id=rank, device_id=device,
                   detail={"table": "mindspore_aicore_op", "operators": len(rows), "total_ms": total})
