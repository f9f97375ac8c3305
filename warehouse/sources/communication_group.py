"""communication_group.json: the communication groups of a cluster (cluster analysis output).

Layout: ``{"collective": [[ranks]], "p2p": [[ranks]], "comm_group_parallel_info": [{type,
rank_set, group_name, group_id, pg_name}]}`` (the last key only in newer files). Every list
item becomes a ``communication_group`` row, with its section.
"""

from __future__ import annotations

import re

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.text import insert_sql, json_head, load_json_object, text, to_json

KIND = "communication_group_json"
SECTIONS = ("collective", "p2p", "comm_group_parallel_info")
HEAD = re.compile(r'^\{"(collective|p2p|comm_group_parallel_info)":\[')
INSERT = insert_sql("communication_group", [
    "source_id", "source_row", "section", "group_type", "rank_set", "group_name", "group_id", "pg_name",
])


def detect(path) -> bool:
    return bool(HEAD.match(json_head(path)))


def ingest(conn, path, source_id):
    document = load_json_object(path)
    rows = []
    for section in SECTIONS:
        items = document.get(section, [])
        if not isinstance(items, list):
            raise IngestError(f"{path}: {section}: expected a list")
        for index, item in enumerate(items):
            rows.append((source_id, len(rows) + 1, section, *_group(path, section, index, item)))
    conn.executemany(INSERT, rows)
    return Outcome(rows=len(rows), detail={"table": "communication_group"})


def _group(path, section: str, index: int, item) -> tuple:
    """(group type, rank set JSON, group name, group id, pg name) of one list item."""
    if isinstance(item, list):
        return section, to_json(item), None, None, None
    if isinstance(item, dict):
        return (text(item.get("type")), to_json(item.get("rank_set")), text(item.get("group_name")),
                text(item.get("group_id")), text(item.get("pg_name")))
    raise IngestError(f"{path}: {section}[{index}]: expected a list of ranks or an object")
