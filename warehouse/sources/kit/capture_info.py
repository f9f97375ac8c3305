"""Rows of ``capture_info``: a capture's metadata as key and value, whichever profiler's file states it.

msprof's start_info / end_info / info.json and .done marks, MindSpore's host_start.log,
min_cycle_counter and step trace point info each keep what they state as rows of one table; the
insert and the flattening of a JSON object into keys (``a.b[0].c``) are here, shared by those sources.
"""

from __future__ import annotations

from decimal import Decimal

from warehouse.sources.kit import multirow
from warehouse.sources.kit.text import insert_sql, load_json_object

INSERT = insert_sql("capture_info", ["source_id", "source_row", "rank_id", "key", "value"])


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
