"""communication_matrix.json: bytes, time and bandwidth per rank pair of each HCCL operator.

Layout: ``{step: {"p2p"|"collective": {"<op>@<group>": {"<src>-<dst>": {"Transport Type",
"Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)", "Op Name"}}}}}``; the cluster
analysis writes it with the step and type levels swapped
(:mod:`warehouse.sources.cluster_communication_matrix`). Rows go to ``communication_matrix``.
"""

from __future__ import annotations

import re

from warehouse.sources.base import Outcome
from warehouse.sources.communication_json import (
    RANK_LAYOUT,
    communication_kind,
    mapping,
    step_id,
    transfer,
    walk_rank_layout,
)
from warehouse.sources.text_export import insert_sql, load_json, rank_of, source_rank, text

KIND = "communication_matrix_json"
LINK = re.compile(r"^(-?\d+)-(-?\d+)$")
INSERT = insert_sql("communication_matrix", [
    "source_id", "source_row", "rank_id", "step_id", "comm_type", "op_name", "group_name", "link",
    "src_rank", "dst_rank", "transport_type", "transit_bytes", "transit_ns", "bandwidth_bytes_per_s",
    "task_op_name",
])


def detect(path) -> bool:
    return communication_kind(path, RANK_LAYOUT) == "matrix"


def ingest(conn, path, source_id):
    rank_id = rank_of(path)
    rows = insert_links(conn, path, source_id, rank_id, walk_rank_layout(path, load_json(path)))
    return Outcome(rows=rows, rank_id=source_rank(rank_id), detail={"table": "communication_matrix"})


def insert_links(conn, path, source_id: int, rank_id: int, entries) -> int:
    """Insert one row per (operator, rank pair) of ``(step, comm type, key, links)`` entries."""
    rows = []
    for step, comm_type, key, links in entries:
        op_name, _, group_name = key.partition("@")
        for link, stats in mapping(path, links, f"{step}/{comm_type}/{key}").items():
            place = f"{step}/{comm_type}/{key}/{link}"
            stats = mapping(path, stats, place)
            match = LINK.match(link)
            rows.append((
                source_id, len(rows) + 1, rank_id, step_id(step), comm_type, op_name, group_name or None, link,
                int(match[1]) if match else None, int(match[2]) if match else None,
                text(stats.get("Transport Type")), *transfer(path, place, stats), text(stats.get("Op Name")),
            ))
    conn.executemany(INSERT, rows)
    return len(rows)
