"""communication_matrix.json: bytes, time and bandwidth per rank pair of each HCCL operator.

Layout: ``{step: {"p2p"|"collective": {"<op>@<group>": {"<src>-<dst>": {"Transport Type",
"Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)", "Op Name"}}}}}``; the cluster
analysis writes it with the step and type levels swapped
(:mod:`warehouse.sources.cluster_communication_matrix`). Rows go to ``communication_matrix``
(:func:`warehouse.sources.kit.communication.insert_links`).
"""

from __future__ import annotations

from warehouse.sources.base import Outcome
from warehouse.sources.kit.communication import RANK_LAYOUT, communication_kind, insert_links, walk_rank_layout
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.text import load_json

KIND = "communication_matrix_json"


def detect(path) -> bool:
    return communication_kind(path, RANK_LAYOUT) == "matrix"


def ingest(conn, path, source_id):
    rank_id = rank_or_unknown(path).rank
    rows = insert_links(conn, path, source_id, rank_id, walk_rank_layout(path, load_json(path)))
    return Outcome(rows=rows, rank_id=rank_id, detail={"table": "communication_matrix"})
