"""host_start.log.{device}: MindSpore's host clocks at the capture's start.

MindSpore's profiler writes it beside the device's raw files: a section line ``[Device{N}]``, then
``clock_realtime: {ns since the epoch}`` and ``clock_monotonic_raw: {ns}``, the same instant on the
host's two clocks. Each ``key: value`` line is a row of ``capture_info`` (the table of a capture's
metadata files, :mod:`warehouse.sources.capture`), its key prefixed by its
section (``Device0.clock_realtime``). The device is the number in the file name. A line that is neither
a section nor ``key: value`` fails the file naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.capture_info import INSERT
from warehouse.sources.mindspore.device import device_of
from warehouse.sources.mindspore.framework import lines

KIND = "mindspore_host_start_log"
NAME = re.compile(r"host_start\.log\.(\d{1,9})")
SECTION = re.compile(r"\[([^\]]{1,100})\]")
#: the table a capture's metadata files go to (warehouse.sources.capture's)


def detect(path) -> bool:
    """MindSpore's file name (a ``.gz`` suffix ignored)."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def values(path: Path):
    """(line number, key, value) of every ``key: value`` line, the key prefixed by its section.

    :raises IngestError: naming the line that is neither a section nor ``key: value``.
    """
    section = ""
    for number, text in lines(path):
        if (match := SECTION.fullmatch(text)) is not None:
            section = match[1] + "."
            continue
        key, colon, value = text.partition(":")
        if not colon or not key.strip():
            raise IngestError(f"{path}: line {number}: expected '[<section>]' or '<key>: <value>', found {text[:80]!r}")
        yield number, section + key.strip(), value.strip()


def ingest(conn, path, source_id) -> Outcome:
    """Insert the file's values (module doc)."""
    rank, device = device_of(path, NAME)
    rows = [(source_id, number, rank, key, value) for number, key, value in values(Path(path))]
    multirow.insert_rows(conn, INSERT, rows)
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail={"table": "capture_info"})
