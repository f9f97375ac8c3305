"""communication.json: time and bandwidth of each HCCL operator of one rank, per step.

Layout: ``{step: {"p2p"|"collective": {"<op>@<group>": {"Communication Time Info": {...},
"Communication Bandwidth Info": {transport: {...}}}}}}``. Rows go to ``communication_time``
(one per operator) and ``communication_bandwidth`` (one per operator and transport type);
ms -> ns, MB -> bytes (10**6: the file's MB / ms is its GB/s), GB/s -> bytes/s.
The cluster analysis writes the same entries one level deeper, per rank
(:mod:`warehouse.sources.cluster_communication`); :mod:`warehouse.sources.kit.communication`
reads both layouts' entries.
"""

from __future__ import annotations

from warehouse.sources.base import Outcome
from warehouse.sources.kit.communication import (
    RANK_LAYOUT,
    Entry,
    communication_kind,
    insert_entries,
    walk_rank_layout,
)
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.text import load_json

KIND = "communication_json"


def detect(path) -> bool:
    return communication_kind(path, RANK_LAYOUT) == "time"


def ingest(conn, path, source_id):
    rank_id = rank_or_unknown(path).rank
    data = load_json(path)
    entries = (
        Entry(rank_id, step, comm_type, key, info, f"{step}/{comm_type}/{key}")
        for step, comm_type, key, info in walk_rank_layout(path, data)
    )
    rows = insert_entries(conn, path, source_id, entries)
    detail = {"tables": ["communication_time", "communication_bandwidth"]}
    return Outcome(rows=rows, rank_id=rank_id, detail=detail)
