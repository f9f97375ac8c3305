"""DATA_PREPROCESS.dev.TDT.{device}.slice_{n}: each batch the host's data transfer (TDT) enqueued for the device.

The device writes a text record per batch, each ended by a NUL byte (as the AI CPU file's records are):
``[{stamp}] Enqueue data to dp, source:{channel}, index:{n}, size:{n}``: the batch's number in its
channel (``index``, from 1) and ``size`` as written (the file names no unit; the real sample's values
run from 0 up to 128, the data queue's depth rather than bytes). No MindSpore parser reads the file;
each record is a row of ``mindspore_tdt_enqueue``. The device is the number in the file name. A record
cut short (no NUL after it), or one of another shape, fails the file naming its byte offset.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_sql
from warehouse.sources.mindspore.aicpu_raw import file_records
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_tdt_raw"
NAME = re.compile(r"DATA_PREPROCESS\.dev\.TDT\.(\d{1,9})\.slice_\d{1,9}")
RECORD = re.compile(r"\[(\d{1,19})\] Enqueue data to dp, source:([^,]*), index:(\d{1,19}), size:(\d{1,19})")
INSERT = insert_sql("mindspore_tdt_enqueue",
                    ["source_id", "source_row", "rank_id", "byte_offset", "stamp", "channel", "batch_index", "size"])


def detect(path) -> bool:
    """MindSpore's file name for the data transfer records."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def ingest(conn, path: str | Path, source_id: int) -> Outcome:
    """Insert the file's enqueued batches (module doc)."""
    rank, device = device_of(path, NAME)
    rows = []
    for offset, text in file_records(path):
        match = RECORD.fullmatch(text.strip())
        try:
            if match is None:
                raise ValueError(f"expected '[<stamp>] Enqueue data to dp, source:<channel>, index:<n>, size:<n>', "
                                 f"found {text[:80]!r}")
            rows.append((source_id, len(rows) + 1, rank, offset, whole(match[1]), match[2], whole(match[3]),
                         whole(match[4])))
        except ValueError as exc:
            raise IngestError(f"{path}: byte {offset}: {exc}") from None
    multirow.insert_rows(conn, INSERT, rows)
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail={"table": "mindspore_tdt_enqueue"})
