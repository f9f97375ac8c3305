"""cluster_communication.json: the cluster analysis' communication.json entries of every rank.

Layout: ``{"p2p"|"collective": {step: {"<op>@<group>": {rank: entry}}}}`` with the entries of
communication.json; rows go to the same tables, ``rank_id`` from the rank key.
"""

from __future__ import annotations

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.communication_json import (
    CLUSTER_LAYOUT,
    Entry,
    communication_kind,
    insert_entries,
    mapping,
    step_id,
    walk_cluster_layout,
)
from warehouse.sources.text_export import load_json

KIND = "cluster_communication_json"


def detect(path) -> bool:
    return communication_kind(path, CLUSTER_LAYOUT) == "time"


def ingest(conn, path, source_id):
    rows = insert_entries(conn, path, source_id, entries(path, load_json(path)))
    return Outcome(rows=rows, detail={"tables": ["communication_time", "communication_bandwidth"]})


def entries(path, data):
    """Every (rank, entry) of the cluster layout as an :class:`Entry`."""
    for step, comm_type, key, by_rank in walk_cluster_layout(path, data):
        for rank, info in mapping(path, by_rank, f"{comm_type}/{step}/{key}").items():
            place = f"{comm_type}/{step}/{key}/{rank}"
            yield Entry(rank_key(path, rank, place), step_id(step), comm_type, key, info, place)


def rank_key(path, key: str, place: str) -> int:
    """The rank number a key names.

    :raises IngestError: when it is not a number.
    """
    if not key.lstrip("-").isdigit():
        raise IngestError(f"{path}: {place}: rank key {key!r} is not a number")
    return int(key)
