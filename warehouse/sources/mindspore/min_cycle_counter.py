"""min_cycle_counter_{device}.txt: the first cycle counter of MindSpore's older profiler's operators on a device.

MindSpore's first profiler (its operator time parser, MindInsight's run_1 resources) wrote the smallest
HWTS cycle counter (100 MHz) at which an operator of the device started, as Python prints a float
(``43806841592.0``, no line end; ``inf`` without operators): its timeline's zero, which MindInsight's
timeline analyser of then read back. It is a fact about the capture, so it is a row of ``capture_info``
(the table of a capture's metadata files, :mod:`warehouse.sources.capture`), key ``min_cycle_counter``,
its value as written. The device is the number in the file name. Anything but one number fails the file.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, read_head
from warehouse.sources.kit.capture_info import INSERT
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_min_cycle_counter_txt"
NAME = re.compile(r"min_cycle_counter_(\d{1,9})\.txt")
#: the float Python prints for a counter (or ``inf``), and an optional line end
COUNTER = re.compile(rb"(\d{1,20}(?:\.\d{1,20})?(?:e\+\d{1,3})?|inf)\r?\n?")
#: a counter is a few bytes: more is not one
MAX_BYTES = 64


def detect(path) -> bool:
    """MindSpore's file name (a ``.gz`` suffix ignored)."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def ingest(conn, path, source_id) -> Outcome:
    """Insert the counter (module doc)."""
    rank, device = device_of(path, NAME)
    head = read_head(path, MAX_BYTES + 1)
    match = COUNTER.fullmatch(head)
    if match is None:
        raise IngestError(f"{path}: byte 0: expected one cycle counter, found {head[:40]!r}")
    conn.execute(INSERT, (source_id, 1, rank, "min_cycle_counter", match[1].decode()))
    return Outcome(rows=1, rank_id=rank, device_id=device, detail={"table": "capture_info"})
