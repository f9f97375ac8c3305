"""scope_map_{step}.json: each operator's scope, beside MindInsight's marey graph of the step.

Kept in MindInsight's test resources beside ascend_marey_timeline_{step}.json
(tests/utils/resource/marey_graph; its test_timeline_analyser.py names it ``scope_map_{}.json``):
``json.dumps`` of ``{"scope_map": {operator: scope}}``, the operator's name scope ('' when it has none).
Each entry is a row of ``mindspore_scope_map``, which the query ``mindspore_marey_spans`` joins to the
spans of the step. The step is the number in the file name. An entry that is not a name and its scope
fails naming it.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.communication import mapping
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_sql, json_head, load_json

KIND = "mindspore_scope_map_json"
NAME = re.compile(r"scope_map_(\d{1,9})\.json")
HEAD = re.compile(r'^\{"scope_map":')
INSERT = insert_sql("mindspore_scope_map", ["source_id", "source_row", "step", "op_name", "scope"])


def detect(path) -> bool:
    """The file name and an object of its key."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def ingest(conn, path, source_id) -> Outcome:
    """Insert the file's entries (module doc)."""
    step = whole(NAME.fullmatch(Path(path).name.removesuffix(".gz"))[1])
    entries = mapping(path, mapping(path, load_json(path), "top level").get("scope_map"), "scope_map")
    for op_name, scope in entries.items():
        if not isinstance(scope, str):
            raise IngestError(f"{path}: scope_map.{op_name}: expected a scope name, found {str(scope)[:40]!r}")
    multirow.insert_rows(conn, INSERT, ((source_id, number, step, op_name, scope)
                                        for number, (op_name, scope) in enumerate(entries.items(), 1)))
    return Outcome(rows=len(entries), detail={"table": "mindspore_scope_map", "step": step})
