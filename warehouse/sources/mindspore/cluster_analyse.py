"""ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}.csv: one rank's time split per step of a parallel run.

MindSpore's cluster analysis writes, per rank of a data-, model- or pipeline-parallel run (the mode,
the number of pipeline stages and of ranks in the file name; ``gpu_cluster_analyse_*`` on GPU), a
record per step of ``computation_time`` and ``communication_alone_time`` (communication not hidden
by computation) and, in a pipeline-parallel run, ``stage_time``, ``receive_alone_time`` (between
stages) and ``collective_communication_alone_time`` (within the stage), all in ms; its last record
is the mean of the steps (MindInsight's cluster and parallel analysers read it as step 0, the
average: mindinsight/profiler/analyser/cluster_analyser.py). Each record is a row of
``mindspore_cluster_step``, the steps numbered from 1, the mean with no step number. The rank is the
last number of the file name. A record whose time does not read fails the file naming its line.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.text import has_headers, insert_sql, ms_to_ns, open_records
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_cluster_analyse_csv"
NAME = re.compile(r"(?:ascend|gpu)_cluster_analyse_([a-z]{1,20}-parallel)_(\d{1,9})_(\d{1,9})_\d{1,9}\.csv")
#: the rank: the file name's last number
RANK = re.compile(r"(?:ascend|gpu)_cluster_analyse_[a-z]{1,20}-parallel_\d{1,9}_\d{1,9}_(\d{1,9})\.csv")
#: the header's names and the columns they fill, the first two in every mode
TIMES = {"computation_time": "computation_ns", "communication_alone_time": "communication_alone_ns",
         "stage_time": "stage_ns", "receive_alone_time": "receive_alone_ns",
         "collective_communication_alone_time": "collective_communication_alone_ns"}
INSERT = insert_sql("mindspore_cluster_step", ["source_id", "source_row", "rank_id", "parallel_mode", "stage_num",
                                               "rank_size", "step_id", *TIMES.values()])


def detect(path) -> bool:
    """MindSpore's file name and header."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and has_headers(
        path, frozenset(list(TIMES)[:2]))


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the file's steps and their mean (module doc)."""
    rank, _device = device_of(path, RANK)
    named = NAME.fullmatch(Path(path).name.removesuffix(".gz"))
    mode, stages, ranks = (named[1], int(named[2]), int(named[3])) if named else (None, None, None)
    rows = []
    with open_records(path) as records:
        where = [records.header.index(name) if name in records.header else None for name in TIMES]
        for number, line, row, short in records:
            if short:
                raise IngestError(f"{path}: line {line}: {len(row)} fields for a header of {len(records.header)}")
            try:
                times = [None if at is None else ms_to_ns(row[at]) for at in where]
            except ValueError as exc:
                raise IngestError(f"{path}: line {line}: {exc}") from None
            rows.append([source_id, number, rank, mode, stages, ranks, number, *times])
    if rows:
        rows[-1][6] = None  # the last record: the mean of the steps
    multirow.insert_rows(conn, INSERT, rows)
    return Outcome(rows=len(rows), rank_id=rank, detail={"table": "mindspore_cluster_step", "steps": max(len(rows) - 1, 0)})
