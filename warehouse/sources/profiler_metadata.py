"""profiler_metadata.json: environment variables and user metadata of a run (ENV_VARIABLES,
distributed_args, parallel_group_info, ...), one ``run_metadata`` row per top-level key,
as the rank db's META_DATA gives them."""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.sources.base import Outcome
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.text import insert_metadata, json_head, load_json_object

KIND = "profiler_metadata_json"
KNOWN_KEY = re.compile(r'^\{"(ENV_VARIABLES|distributed_args|parallel_group_info)":\{')
NAME = "profiler_metadata.json"


def detect(path) -> bool:
    """Its first key is one torch_npu writes; or, named so, an object that is no trace
    (user metadata added with ``add_metadata`` may come first)."""
    head = json_head(path)
    if KNOWN_KEY.match(head):
        return True
    return Path(path).name == NAME and head.startswith('{"') and '"traceEvents"' not in head


def ingest(conn, path, source_id):
    document = load_json_object(path)
    rank_id = rank_or_unknown(path).rank
    rows = insert_metadata(conn, source_id, rank_id, document)
    return Outcome(rows=rows, rank_id=rank_id, detail={"table": "run_metadata"})
