"""flops_scope_{device}.json: MindSpore's FLOPs per scope, the Sankey diagram MindInsight draws.

MindSpore's flops parser (flops_parser.py) writes, from the operators of flops_{device}.txt,
``{"data": {"nodes": [{"name"}...], "links": [{"source", "target", "value"}...]}, "max_scope_num": n}``:
each link a scope (``target``, named ``{scope}({subgraph})`` below the subgraphs) within its parent
(``source``; ``Total`` above the subgraphs ``Default`` and ``Gradients``) with the MFLOPs of the
operators under it, rounded to 3 decimals. Each link is a row of ``mindspore_flops_scope``; the nodes
only name the links' ends, and ``max_scope_num`` (the depth drawn) goes to ``source.detail``. The audit
``mindspore_flops_scope_agrees`` reconciles its total with the device's FLOPs summary. The device is
the number in the file name. A link that is not two names and a number fails naming its place.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.text import insert_sql, json_head, load_json
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_flops_scope_json"
NAME = re.compile(r"flops_scope_(\d{1,9})\.json")
HEAD = re.compile(r'^\{"(data|max_scope_num)":')
INSERT = insert_sql("mindspore_flops_scope", ["source_id", "source_row", "rank_id", "parent_scope", "scope", "mflops"])


def detect(path) -> bool:
    """MindSpore's file name and an object of its keys."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def links(path, document) -> list[tuple[str, str, float]]:
    """(parent scope, scope, MFLOPs) of every link.

    :raises IngestError: naming the place that is not what MindSpore writes.
    """
    data = document.get("data") if isinstance(document, dict) else None
    found = data.get("links") if isinstance(data, dict) else None
    if not isinstance(found, list):
        raise IngestError(f"{path}: data.links: expected a list of links")
    rows = []
    for index, link in enumerate(found):
        if not isinstance(link, dict):
            raise IngestError(f"{path}: data.links[{index}]: expected an object")
        parent, scope, value = link.get("source"), link.get("target"), link.get("value")
        if not isinstance(parent, str) or not isinstance(scope, str):
            raise IngestError(f"{path}: data.links[{index}]: expected 'source' and 'target' names")
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)) or not abs(value) < 1 << 63:
            raise IngestError(f"{path}: data.links[{index}].value: expected a number, found {str(value)[:40]!r}")
        rows.append((parent, scope, float(value)))
    return rows


def ingest(conn, path, source_id) -> Outcome:
    """Insert the file's links (module doc)."""
    rank, device = device_of(path, NAME)
    document = load_json(path)
    rows = links(path, document)
    multirow.insert_rows(conn, INSERT, ((source_id, number, rank, *row) for number, row in enumerate(rows, 1)))
    depth = document.get("max_scope_num")
    return Outcome(rows=len(rows), rank_id=rank, device_id=device,
                   detail={"table": "mindspore_flops_scope", "max_scope_num": depth if isinstance(depth, int) else None})
