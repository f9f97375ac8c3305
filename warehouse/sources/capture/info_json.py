"""start_info.{N}, end_info.{N}, info.json.{N}: msprof's JSON files about a device's capture.

msprof writes them in a PROF folder's ``device_{N}`` folder: ``start_info`` and ``end_info`` the
capture's start and end on two clocks (``collectionTimeBegin`` / ``End``, us since the epoch, and
``clockMonotonicRaw``, ns), ``info.json`` the host and device (``rank_id``, ``hostname``,
``DeviceInfo``: core counts, frequencies, ...). The msprof timeline's source reads the start_info beside
its JSONs for its clock and the rank layout the info.json for the rank; this source keeps every value
each file states: a row of ``capture_info`` per value, its key the path to it (``DeviceInfo[0].ai_core_num``),
its value as text (numbers as written). The rank and device are the folders'. A file that is not a JSON
object fails naming the place.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.sources.base import Outcome
from warehouse.sources.kit.capture_info import insert_values
from warehouse.sources.kit.rank_layout import rank_or_unknown

KIND = "capture_info_json"
NAME = re.compile(r"(start_info|end_info|info\.json)\.(\d{1,9})")


def detect(path) -> bool:
    """msprof's file name (a ``.gz`` suffix ignored)."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def ingest(conn, path, source_id) -> Outcome:
    """Insert every value of the file (module doc)."""
    layout = rank_or_unknown(path)
    rows = insert_values(conn, path, source_id, layout.rank)
    return Outcome(rows=rows, rank_id=layout.rank, device_id=layout.device_id, detail={"table": "capture_info"})
