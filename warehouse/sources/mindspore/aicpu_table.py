"""output_data_preprocess_aicpu_{device}.txt: MindSpore's AI CPU table, its intermediate of DATA_PREPROCESS.dev.AICPU.

MindSpore's AI CPU parser (``DataPreProcessParser``, aicpu_data_parser.py) writes it from the raw
AI CPU file: a header of column names, then per named task (the raw file's tasks with a Node record, in
file order) its fields separated by spaces, and last ``AI CPU Total Time(ms): {sum}``. Two versions:

- older: ``serial_number``, ``node_type_name``, ``total_time(ms)``, ``dispatch_time(ms)``, ``run_start`` and
  ``run_end`` (the Node record's run points as written), laid out by tabulate with a line of dashes under
  the header (or one space apart with none, as MindInsight's run_2 sample);
- newer: ``execution_time(ms)`` (run end minus run start) after the dispatch time, and the run points as
  the AI CPU counter over 100 (Python floats, in us), fields one space apart with no dashes. They are kept
  to the us, as the older version's and as the reader of the table's CSV copy keeps them
  (:mod:`~warehouse.sources.mindspore.aicpu_intermediate`), so the audit compares like with like.

Each task is a row of ``mindspore_aicpu_op`` (times in ns; the columns the table does not give NULL),
numbered by its serial number; the total goes to ``source.detail``. Where the raw file is in the run too
it answers (fact aicpu_op) and the audit ``mindspore_aicpu_agrees`` reconciles this table with it. A line
of other fields than the header's fails the file naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_sql, integer, ms_to_ns
from warehouse.sources.mindspore.device import device_of, named_text, table_rows
from warehouse.sources.mindspore.framework import lines

KIND = "mindspore_aicpu_txt"
NAME = re.compile(r"output_data_preprocess_aicpu_(\d{1,9})\.txt")
#: the columns MindSpore writes, in order: the older version's, the newer's
HEADER = ("serial_number", "node_type_name", "total_time(ms)", "dispatch_time(ms)", "run_start", "run_end")
HEADER_EXECUTION = (*HEADER[:4], "execution_time(ms)", *HEADER[4:])
TOTAL = "AI CPU Total Time(ms):"
INSERT = insert_sql("mindspore_aicpu_op", ["source_id", "source_row", "rank_id", "op_type", "total_ns", "dispatch_ns",
                                           "execution_ns", "run_start", "run_end"])


def detect(path) -> bool:
    """MindSpore's file name, and either version's header first."""
    return named_text(path, (NAME,), lambda line: tuple(line.split()) in (HEADER, HEADER_EXECUTION))


def read(path: Path) -> tuple[list[tuple], str | None]:
    """(serial number, node type, total ns, dispatch ns, execution ns, run start, run end) of every task
    (execution NULL in the older version), and the total line's figure as written (None when the file has none).

    :raises IngestError: naming the line that is not the header, or not a task of the header's fields.
    """
    first = next(lines(path), (0, ""))[1]
    if tuple(first.split()) == HEADER_EXECUTION:
        return table_rows(path, (" ".join(HEADER_EXECUTION), None), TOTAL, len(HEADER_EXECUTION), lambda fields: (
            whole(fields[0]), fields[1], ms_to_ns(fields[2]), ms_to_ns(fields[3]), ms_to_ns(fields[4]),
            integer(fields[5]), integer(fields[6])))
    return table_rows(path, (" ".join(HEADER), None), TOTAL, len(HEADER), lambda fields: (
        whole(fields[0]), fields[1], ms_to_ns(fields[2]), ms_to_ns(fields[3]), None, whole(fields[4]),
        whole(fields[5])))


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the table's tasks (module doc)."""
    rank, device = device_of(path, NAME)
    rows, total = read(Path(path))
    multirow.insert_rows(conn, INSERT, ((source_id, number, rank, *values) for number, *values in rows))
    return Outcome(rows=len(rows), rank_id=rank, device_id=device,
                   detail={"table": "mindspore_aicpu_op", "tasks": len(rows), "total_ms": total})
