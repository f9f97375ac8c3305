"""profiler_metadata.json: environment variables and user metadata of a run (ENV_VARIABLES,
distributed_args, parallel_group_info, ...), one ``run_metadata`` row per top-level key,
as the rank db's META_DATA gives them."""

from __future__ import annotations

import re

from warehouse.sources.base import Outcome
from warehouse.sources.text_export import insert_metadata, json_head, load_json_object, rank_of

KIND = "profiler_metadata_json"
HEAD = re.compile(r'^\{"(ENV_VARIABLES|distributed_args|parallel_group_info)":\{')


def detect(path) -> bool:
    return bool(HEAD.match(json_head(path)))


def ingest(conn, path, source_id):
    document = load_json_object(path)
    rank_id = rank_of(path)
    rows = insert_metadata(conn, source_id, rank_id, document)
    return Outcome(rows=rows, rank_id=rank_id, detail={"table": "run_metadata"})
