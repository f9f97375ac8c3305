"""DATA_PREPROCESS.dev.AICPUMI.{device}.slice_{n}: the AI CPU's GetNext records, raw.

The AI CPU writes text records, each ended by a NUL byte, of ``, ``-separated fields, as MindSpore's
minddata parser (``MinddataParser``, minddata_parser.py) reads them: ``Node:{name}, queue size:{n},
Run start:{us}, Run end:{us}`` or ``Node:{name}, Run start:{us}, Run end:{us}, queue size:{n}``. The
parser writes them to minddata_aicpu_{device}.txt, which
:mod:`~warehouse.sources.mindspore.get_next` reads; this source reads the records themselves into
the same ``mindspore_get_next``, each GetNext numbered by its place among the file's GetNext records
(the nodes MindInsight's analyser reads; the others are counted in ``source.detail``). Where both are
in a run the raw file answers (the fact get_next) and the audit ``mindspore_get_next_agrees``
reconciles the text file with it. A record cut short (no NUL after it), or one that is not four such
fields, fails the file naming its byte offset.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import int64, whole
from warehouse.sources.mindspore.aicpu_raw import file_records
from warehouse.sources.mindspore.device import device_of
from warehouse.sources.mindspore.get_next import INSERT, NODE, NS_PER_US

KIND = "mindspore_get_next_raw"
NAME = re.compile(r"DATA_PREPROCESS\.(?:dev\.)?AICPUMI\.(\d{1,9})\.slice_\d{1,9}")
#: a field's label -> what it gives
LABELS = {"queue size": "queue_size", "Run start": "start", "Run end": "end"}


def detect(path) -> bool:
    """MindSpore's file name for the AI CPU's GetNext records."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def get_next(text: str) -> tuple[str, int, int, int]:
    """(node name, start ns, end ns, queue size) of a record.

    :raises ValueError: when it is not a ``Node:`` field and the three labelled numbers.
    """
    fields = text.strip().split(", ")
    if len(fields) != 4 or not fields[0].startswith("Node:"):
        raise ValueError(f"expected 'Node:<name>, queue size:<n>, Run start:<us>, Run end:<us>', found {text[:80]!r}")
    values = {}
    for field in fields[1:]:
        label, _, value = field.partition(":")
        if label not in LABELS or not value.isdigit():
            raise ValueError(f"not a 'queue size', 'Run start' or 'Run end' number: {field[:40]!r}")
        values[LABELS[label]] = whole(value)
    if len(values) != 3:
        raise ValueError(f"a field twice: {text[:80]!r}")
    start, end = (int64(values[key] * NS_PER_US, str(values[key])) for key in ("start", "end"))
    return fields[0].removeprefix("Node:"), start, end, values["queue_size"]


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the file's GetNext records (module doc)."""
    rank, device = device_of(path, NAME)
    rows, others = [], 0
    for offset, text in file_records(path):
        try:
            record = get_next(text)
        except ValueError as exc:
            raise IngestError(f"{path}: byte {offset}: {exc}") from None
        if record[0].startswith(NODE):
            rows.append((source_id, len(rows) + 1, rank, *record))
        else:
            others += 1
    multirow.insert_rows(conn, INSERT, rows)
    return Outcome(rows=len(rows), rank_id=rank, device_id=device,
                   detail={"table": "mindspore_get_next", "get_next": len(rows), "other_nodes": others})
