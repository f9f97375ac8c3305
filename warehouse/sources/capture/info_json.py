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
from decimal import Decimal
from pathlib import Path

from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.text import insert_sql, load_json_object

KIND = "capture_info_json"
NAME = re.compile(r"(start_info|end_info|info\.json)\.(\d{1,9})")
INSERT = insert_sql("capture_info", ["source_id", "source_row", "rank_id", "key", "value"])


def detect(path) -> bool:
    """msprof's file name (a ``.gz`` suffix ignored)."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def flattened(value, key: str = ""):
    """(key, text) of every value of a JSON document, the key its path (``a.b[0].c``); an empty object or
    list is one value, ``{}`` or ``[]``."""
    if isinstance(value, dict) and value:
        for name, item in value.items():
            yield from flattened(item, f"{key}.{name}" if key else name)
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from flattened(item, f"{key}[{index}]")
    elif isinstance(value, (dict, list)):
        yield key, "{}" if isinstance(value, dict) else "[]"
    elif isinstance(value, bool):
        yield key, "true" if value else "false"
    else:
        yield key, None if value is None else str(value) if isinstance(value, (str, int, Decimal)) else repr(value)


def insert_values(conn, path, source_id: int, rank_id: int) -> int:
    """Insert a ``capture_info`` row of ``rank_id`` per value of the JSON object file (:func:`flattened`);
    returns how many."""
    values = list(flattened(load_json_object(path)))
    multirow.insert_rows(conn, INSERT, ((source_id, number, rank_id, key, value)
                                        for number, (key, value) in enumerate(values, 1)))
    return len(values)


def ingest(conn, path, source_id) -> Outcome:
    """Insert every value of the file (module doc)."""
    layout = rank_or_unknown(path)
    rows = insert_values(conn, path, source_id, layout.rank)
    return Outcome(rows=rows, rank_id=layout.rank, device_id=layout.device_id, detail={"table": "capture_info"})
