"""The communication JSON files' entries: walking both layouts, converting and inserting their rows.

A rank's communication.json and communication_matrix.json are ``{step: {"p2p"|"collective":
{"<op>@<group>": entry}}}``; the cluster analysis writes the same entries with the step and type
levels swapped (cluster_communication.json one level deeper, per rank). Time and bandwidth entries
go to ``communication_time`` (one per operator) and ``communication_bandwidth`` (one per operator
and transport type), matrix entries to ``communication_matrix`` (one per operator and rank pair);
ms -> ns, MB -> bytes (10**6: the file's MB / ms is its GB/s), GB/s -> bytes/s.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warehouse.errors import IngestError
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.step_trace import STEP
from warehouse.sources.kit.text import (
    gb_per_s_to_bytes_per_s,
    insert_sql,
    json_head,
    mb_to_bytes,
    ms_to_ns,
    real,
    text,
    to_json,
    us_to_ns,
)

COMM_TYPES = ("p2p", "collective")
#: ``{step: {"p2p"|"collective": {...`` (a rank's files) and ``{"p2p"|"collective": {step: {...`` (cluster files)
RANK_LAYOUT = re.compile(r'^\{"[^"]*":\{"(p2p|collective)":\{')
CLUSTER_LAYOUT = re.compile(r'^\{"(p2p|collective)":\{"[^"]*":\{')
#: Keys only the time file / only the matrix file has (in the whitespace-free head).
TIME_MARKER = '"CommunicationTimeInfo"'
MATRIX_MARKER = '"TransportType"'

TIME_INSERT = insert_sql("communication_time", [
    "source_id", "source_row", "rank_id", "step_id", "comm_type", "op_name", "group_name", "ts", "elapse_ns",
    "transit_ns", "wait_ns", "synchronization_ns", "idle_ns", "wait_ratio", "synchronization_ratio",
])
BANDWIDTH_INSERT = insert_sql("communication_bandwidth", [
    "source_id", "source_row", "rank_id", "step_id", "comm_type", "op_name", "group_name", "transport_type",
    "transit_bytes", "transit_ns", "bandwidth_bytes_per_s", "large_packet_ratio", "size_distribution",
])
#: a rank pair ``<src>-<dst>`` of the matrix files
LINK = re.compile(r"^(-?\d+)-(-?\d+)$")
#: a group's ranks as ``str(tuple)`` writes them, ``(0, 1)``, ``(3,)``, ``()``, or as msprof-analyze's
#: db writers join them, ``(0,1)``
RANK_SET = re.compile(r"^\(\s*(?:-?\d+\s*(?:,\s*-?\d+\s*)*,?\s*)?\)$")
MATRIX_INSERT = insert_sql("communication_matrix", [
    "source_id", "source_row", "rank_id", "step_id", "comm_type", "op_name", "group_name", "link",
    "src_rank", "dst_rank", "transport_type", "transit_bytes", "transit_ns", "bandwidth_bytes_per_s",
    "task_op_name",
])


@dataclass
class Entry:
    """One operator entry of a communication file, where it sits in the file."""

    rank_id: int
    #: the step key (``step50``)
    step: str
    comm_type: str
    key: str
    info: dict
    #: the JSON path of the entry, for error messages
    place: str

    @property
    def op_name(self) -> str:
        return self.key.rsplit("@", 1)[0]

    @property
    def group_name(self) -> str | None:
        return self.key.rsplit("@", 1)[1] if "@" in self.key else None


def communication_kind(path, layout: re.Pattern) -> str | None:
    """``time`` or ``matrix`` for a communication file of ``layout``, from its first keys; None otherwise.

    A file without a single operator entry has neither marker: its name decides then.
    """
    head = json_head(path)
    if not layout.match(head):
        return None
    if TIME_MARKER in head:
        return "time"
    if MATRIX_MARKER in head:
        return "matrix"
    if _without_entries(head):
        return "matrix" if "matrix" in Path(path).name else "time"
    return None


def _without_entries(head: str) -> bool:
    """Whether the (whole) document is only nested empty objects, e.g. ``{"step1": {"p2p": {}}}``."""
    try:
        document = json.loads(head)
    except (ValueError, RecursionError):
        return False
    if not isinstance(document, dict):
        return False
    return all(not entries for by_type in document.values() if isinstance(by_type, dict)
               for entries in by_type.values())


def step_id(key: str) -> int | None:
    """The step number of a step key (``step50`` -> 50), None when it has none.

    :raises ValueError: when the number is past 64-bit integers.
    """
    match = STEP.search(key)
    return whole(match[1]) if match else None


def link_ends(link) -> tuple[int | None, int | None]:
    """The sending and receiving ranks of a ``<src>-<dst>`` pair, (None, None) when it is not two ranks.

    :raises ValueError: when a rank is past 64-bit integers.
    """
    match = LINK.match(link) if isinstance(link, str) else None
    return (whole(match[1]), whole(match[2])) if match else (None, None)


def rank_set(text) -> list[int]:
    """The ranks of a rank set written ``(0, 1)``, ``(0,1)``, ``(3,)`` or ``()``.

    :raises ValueError: when it is not one, or a rank is past 64-bit integers.
    """
    if not isinstance(text, str) or not RANK_SET.match(text):
        raise ValueError(f"not a rank set: {text!r}")
    return [whole(item.strip()) for item in text.strip("()").split(",") if item.strip()]


def walk_rank_layout(path, data: Any) -> Iterator[tuple[str, str, str, Any]]:
    """(step, comm type, entry key, entry) of a ``{step: {comm type: {key: entry}}}`` document."""
    for step, by_type in mapping(path, data, "top level").items():
        for comm_type, entries in mapping(path, by_type, step).items():
            for key, entry in mapping(path, entries, f"{step}/{comm_type}").items():
                yield step, comm_type, key, entry


def walk_cluster_layout(path, data: Any) -> Iterator[tuple[str, str, str, Any]]:
    """(step, comm type, entry key, entry) of a ``{comm type: {step: {key: entry}}}`` document (cluster files)."""
    for comm_type, by_step in mapping(path, data, "top level").items():
        for step, entries in mapping(path, by_step, comm_type).items():
            for key, entry in mapping(path, entries, f"{comm_type}/{step}").items():
                yield step, comm_type, key, entry


def mapping(path, value: Any, place: str) -> dict:
    """``value`` when it is a JSON object.

    :raises IngestError: naming the place otherwise.
    """
    if not isinstance(value, dict):
        raise IngestError(f"{path}: {place}: expected an object, found {type(value).__name__}")
    return value


def insert_entries(conn: sqlite3.Connection, path, source_id: int, entries) -> int:
    """Insert the time and bandwidth rows of every entry; returns the row count."""
    times, bandwidths = [], []
    for entry in entries:
        info = mapping(path, entry.info, entry.place)
        step = converted(path, entry.place, step_id, entry.step)
        head = (entry.rank_id, step, entry.comm_type, entry.op_name, entry.group_name)
        if "Communication Time Info" in info:
            times.append((source_id, len(times) + 1, *head, *_time(path, entry)))
        for transport, stats in mapping(path, info.get("Communication Bandwidth Info", {}), entry.place).items():
            bandwidths.append((source_id, len(bandwidths) + 1, *head, transport, *_bandwidth(path, entry, stats)))
    conn.executemany(TIME_INSERT, times)
    conn.executemany(BANDWIDTH_INSERT, bandwidths)
    return len(times) + len(bandwidths)


def _time(path, entry: Entry) -> tuple:
    place = f"{entry.place}/Communication Time Info"
    info = mapping(path, entry.info["Communication Time Info"], place)
    fields = (
        (us_to_ns, "Start Timestamp(us)"), (ms_to_ns, "Elapse Time(ms)"), (ms_to_ns, "Transit Time(ms)"),
        (ms_to_ns, "Wait Time(ms)"), (ms_to_ns, "Synchronization Time(ms)"), (ms_to_ns, "Idle Time(ms)"),
        (real, "Wait Time Ratio"), (real, "Synchronization Time Ratio"),
    )
    return tuple(converted(path, place, convert, info.get(name)) for convert, name in fields)


def _bandwidth(path, entry: Entry, stats: Any) -> tuple:
    place = f"{entry.place}/Communication Bandwidth Info"
    stats = mapping(path, stats, place)
    return (
        *transfer(path, place, stats),
        converted(path, place, real, stats.get("Large Packet Ratio")),
        to_json(stats["Size Distribution"]) if "Size Distribution" in stats else None,
    )


def transfer(path, place: str, stats: dict) -> tuple[int | None, int | None, int | None]:
    """(bytes, ns, bytes/s) of the Transit Size(MB), Transit Time(ms) and Bandwidth(GB/s) of ``stats``."""
    return (
        converted(path, place, mb_to_bytes, stats.get("Transit Size(MB)")),
        converted(path, place, ms_to_ns, stats.get("Transit Time(ms)")),
        converted(path, place, gb_per_s_to_bytes_per_s, stats.get("Bandwidth(GB/s)")),
    )


def converted(path, place: str, convert, value):
    """``convert(value)``, a failure named by the file and JSON place."""
    try:
        return convert(value)
    except (ValueError, TypeError) as exc:
        raise IngestError(f"{path}: {place}: {exc}") from None


def insert_links(conn, path, source_id: int, rank_id: int, entries) -> int:
    """Insert one row per (operator, rank pair) of ``(step, comm type, key, links)`` entries."""
    rows = []
    for step, comm_type, key, links in entries:
        op_name, _, group_name = key.partition("@")
        for link, stats in mapping(path, links, f"{step}/{comm_type}/{key}").items():
            place = f"{step}/{comm_type}/{key}/{link}"
            stats = mapping(path, stats, place)
            rows.append((
                source_id, len(rows) + 1, rank_id, converted(path, place, step_id, step), comm_type, op_name,
                group_name or None, link, *converted(path, place, link_ends, link),
                text(stats.get("Transport Type")), *transfer(path, place, stats), text(stats.get("Op Name")),
            ))
    conn.executemany(MATRIX_INSERT, rows)
    return len(rows)
