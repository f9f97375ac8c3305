"""cluster_communication.json: the cluster analysis' communication.json entries of every rank.

msprof-analyze has written two layouts, both ``{top: {step: {"<op>@<group>": {rank: entry}}}}``
with the entries of communication.json, the top key differing:

- ``"p2p"`` / ``"collective"``: the communication type (older releases);
- the ranks of the operator's communication group as Python writes a tuple, e.g. ``"(0, 1)"``
  (``str(tuple)`` of the group's ranks; ``"()"`` when the analysis found no group), which
  does not say the type: ``comm_type`` stays NULL for those entries.

MindStudio Insight reads both with one parser, the top key being "p2p" or a rank list.
Rows go to the same tables as communication.json's, ``rank_id`` from the rank key,
``step_id`` from the step key, ``group_name`` from the operator key.
"""

from __future__ import annotations

import re

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.communication import (
    CLUSTER_LAYOUT,
    COMM_TYPES,
    RANK_SET,
    Entry,
    communication_kind,
    insert_entries,
    converted,
    mapping,
    walk_cluster_layout,
)
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import load_json

KIND = "cluster_communication_json"
#: ``{"(0,1)":{step:{...`` in the whitespace-free head: the layout keyed by the group's ranks
GROUP_LAYOUT = re.compile(r'^\{"\((?:-?\d+,?)*\)":\{"[^"]*":\{')


def detect(path) -> bool:
    return any(communication_kind(path, layout) == "time" for layout in (CLUSTER_LAYOUT, GROUP_LAYOUT))


def ingest(conn, path, source_id):
    rows = insert_entries(conn, path, source_id, entries(path, load_json(path)))
    return Outcome(rows=rows, detail={"tables": ["communication_time", "communication_bandwidth"]})


def entries(path, data):
    """Every (rank, entry) of either layout as an :class:`Entry`."""
    for step, top, key, by_rank in walk_cluster_layout(path, data):
        comm_type = top if top in COMM_TYPES else None
        if comm_type is None and not RANK_SET.match(top):
            raise IngestError(f"{path}: {top}: top-level key {top!r} is neither p2p/collective nor a group's ranks")
        for rank, info in mapping(path, by_rank, f"{top}/{step}/{key}").items():
            place = f"{top}/{step}/{key}/{rank}"
            yield Entry(rank_key(path, rank, place), step, comm_type, key, info, place)


def rank_key(path, key: str, place: str) -> int:
    """The rank number a key names.

    :raises IngestError: when it is not a number or past 64-bit integers.
    """
    if not key.lstrip("-").isdigit():
        raise IngestError(f"{path}: {place}: rank key {key!r} is not a number")
    return converted(path, place, whole, key)
