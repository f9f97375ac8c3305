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

The older data-parallel layout (MindInsight's run_2 resources: header ``iteration_interval, fp_and_bp,
tail``, a space after each comma) gives instead each step's phases as the device's step trace does,
in counter cycles of 100 MHz (its one record is step 1 of run_2's step_trace_raw_1_detail_time.csv),
and no mean: what MindInsight's cluster analyser shows of a data-parallel run (its step_trace_info:
iteration interval, forward and backward, tail; cluster_analyser.py reads them from the step trace).
Its records go to the same table's phase columns, every one a step.

The older model- and pipeline-parallel layout (MindInsight's run_3 and run_4 resources) names the first
column ``computation`` and the last ``collective_communication_time`` (no ``_alone``; MindInsight's cluster
analyser shows it as collective_communication_alone) and writes no mean: its one record is the step
MindInsight's test asks for, step 1. Its times are ms too, into the same columns, every record a step.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.text import has_headers, insert_sql, ms_to_ns, open_records
from warehouse.sources.mindspore.device import device_of
from warehouse.sources.mindspore.step_trace_raw import cycles_to_ns

KIND = "mindspore_cluster_analyse_csv"
NAME = re.compile(r"(?:ascend|gpu)_cluster_analyse_([a-z]{1,20}-parallel)_(\d{1,9})_(\d{1,9})_\d{1,9}\.csv")
#: the rank: the file name's last number
RANK = re.compile(r"(?:ascend|gpu)_cluster_analyse_[a-z]{1,20}-parallel_\d{1,9}_\d{1,9}_(\d{1,9})\.csv")
#: the header's names and the columns they fill, the first two in every mode
TIMES = {"computation_time": "computation_ns", "communication_alone_time": "communication_alone_ns",
         "stage_time": "stage_ns", "receive_alone_time": "receive_alone_ns",
         "collective_communication_alone_time": "collective_communication_alone_ns"}
#: the older model- and pipeline-parallel layout's header names and the columns they fill
OLDER_TIMES = {"computation": "computation_ns", "communication_alone_time": "communication_alone_ns",
               "stage_time": "stage_ns", "receive_alone_time": "receive_alone_ns",
               "collective_communication_time": "collective_communication_alone_ns"}
#: the older data-parallel layout's header names (counter cycles) and the columns they fill
PHASES = {"iteration_interval": "iteration_interval_ns", "fp_and_bp": "fp_and_bp_ns", "tail": "tail_ns"}
#: each layout: the header names every file of it has, its names and columns, how a time converts, whether
#: its last record is the mean
LAYOUTS = ((frozenset(list(TIMES)[:2]), TIMES, ms_to_ns, True),
           (frozenset(list(OLDER_TIMES)[:2]), OLDER_TIMES, ms_to_ns, False),
           (frozenset(PHASES), PHASES, cycles_to_ns, False))


def insert(columns) -> str:
    """The INSERT of a layout's rows, its time ``columns`` last."""
    return insert_sql("mindspore_cluster_step", ["source_id", "source_row", "rank_id", "parallel_mode", "stage_num",
                                                 "rank_size", "step_id", *columns])


def detect(path) -> bool:
    """MindSpore's file name and the header of one of its layouts."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and any(
        has_headers(path, required) for required, *_ in LAYOUTS)


def layout_of(path, header: list[str]) -> tuple[dict, object, bool]:
    """The layout whose first two header names ``header`` has.

    :raises IngestError: naming the header when it is no layout's.
    """
    for required, names, convert, mean_last in LAYOUTS:
        if required <= set(header):
            return names, convert, mean_last
    raise IngestError(f"{path}: line 1: expected the header of computation_time (or computation), "
                      f"communication_alone_time, ... or of iteration_interval, fp_and_bp, tail, "
                      f"found {','.join(header)[:80]!r}")


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the file's steps and their mean (module doc)."""
    rank, _device = device_of(path, RANK)
    named = NAME.fullmatch(Path(path).name.removesuffix(".gz"))
    mode, stages, ranks = (named[1], int(named[2]), int(named[3])) if named else (None, None, None)
    rows = []
    with open_records(path) as records:
        names, convert, mean_last = layout_of(path, records.header)
        where = [records.header.index(name) if name in records.header else None for name in names]
        for number, line, row, short in records:
            if short:
                raise IngestError(f"{path}: line {line}: {len(row)} fields for a header of {len(records.header)}")
            try:
                times = [None if at is None else convert(row[at]) for at in where]
            except ValueError as exc:
                raise IngestError(f"{path}: line {line}: {exc}") from None
            rows.append([source_id, number, rank, mode, stages, ranks, number, *times])
    if rows and mean_last:
        rows[-1][6] = None  # the last record: the mean of the steps
    multirow.insert_rows(conn, insert(names.values()), rows)
    steps = max(len(rows) - 1, 0) if mean_last else len(rows)
    return Outcome(rows=len(rows), rank_id=rank, detail={"table": "mindspore_cluster_step", "steps": steps})
