"""minddata_aicpu_{device}.txt: each GetNext of the device, its wait for a batch and the queue it found.

MindSpore's minddata parser (mindspore/profiler/parser/minddata_parser.py) writes it from the AI CPU's
``DATA_PREPROCESS.dev.AICPUMI`` records: a line ``{node} {start} {end} {queue size}`` per GetNext
(``GetNext_dequeue_wait``), times in us. On GPU the profiler writes the same lines to
``minddata_getnext_profiling_{device}.txt``, times in ns. Other lines are kept out, as MindInsight's
minddata analyser (mindinsight/profiler/analyser/minddata_analyser.py) reads only the lines whose
node starts with ``GetNext``. Each GetNext is one ``mindspore_get_next`` row, numbered by its line: a
GetNext that found the queue empty waited for the data pipeline (MindInsight's empty_queue count).
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.numbers import int64, whole
from warehouse.sources.kit.text import insert_sql
from warehouse.sources.mindspore.device import device_of, named_text
from warehouse.sources.mindspore.framework import lines

KIND = "mindspore_get_next_txt"
ASCEND = re.compile(r"minddata_aicpu_(\d{1,9})\.txt")
GPU = re.compile(r"minddata_getnext_profiling_(\d{1,9})\.txt")
#: the node name MindInsight reads (GetNext_dequeue_wait on Ascend, GetNext on GPU)
NODE = "GetNext"
#: the header MindSpore's parser may write first
HEADER = "node_name"
NS_PER_US = 1000
INSERT = insert_sql("mindspore_get_next",
                    ["source_id", "source_row", "rank_id", "name", "start_ns", "end_ns", "queue_size"])


def _pattern(path) -> re.Pattern | None:
    name = Path(path).name.removesuffix(".gz")
    return next((pattern for pattern in (ASCEND, GPU) if pattern.fullmatch(name)), None)


def detect(path) -> bool:
    return named_text(path, (ASCEND, GPU), lambda first: first.startswith((NODE, HEADER)))


def ingest(conn, path, source_id) -> Outcome:
    pattern = _pattern(path)
    rank, device = device_of(path, pattern)
    scale = NS_PER_US if pattern is ASCEND else 1
    rows = [(source_id, number, rank, *_get_next(path, number, text, scale))
            for number, text in lines(Path(path)) if text.startswith(NODE)]
    conn.executemany(INSERT, rows)
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail={"table": "mindspore_get_next"})


def _get_next(path, number: int, text: str, scale: int) -> tuple:
    """(name, start ns, end ns, queue size) of a GetNext line.

    :raises IngestError: naming the line when it is not a name and three whole numbers.
    """
    fields = text.split()
    try:
        if len(fields) != 4:
            raise ValueError(f"expected '<node> <start> <end> <queue size>', found {text[:80]!r}")
        start, end, size = (whole(field) for field in fields[1:])
        return fields[0], int64(start * scale, fields[1]), int64(end * scale, fields[2]), size
    except ValueError as exc:
        raise IngestError(f"{path}: line {number}: {exc}") from None
