"""cluster_communication_matrix.json: the cluster analysis' communication matrix of all ranks.

Layout ``{"p2p"|"collective": {step: {"<op>@<group>": {"<src>-<dst>": {...}}}}}``; rows go
to ``communication_matrix`` with ``rank_id`` -1 (the pair's ranks are src_rank and dst_rank).
"""

from __future__ import annotations

from warehouse.sources.base import Outcome
from warehouse.sources.kit.communication import CLUSTER_LAYOUT, communication_kind, insert_links, walk_cluster_layout
from warehouse.sources.kit.rank_layout import UNKNOWN_RANK
from warehouse.sources.kit.text import load_json

KIND = "cluster_communication_matrix_json"


def detect(path) -> bool:
    return communication_kind(path, CLUSTER_LAYOUT) == "matrix"


def ingest(conn, path, source_id):
    rows = insert_links(conn, path, source_id, UNKNOWN_RANK, walk_cluster_layout(path, load_json(path)))
    return Outcome(rows=rows, detail={"table": "communication_matrix"})
