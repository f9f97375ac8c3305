"""parallel_strategy_{rank}.json: MindSpore's auto-parallel strategy of one rank's graph.

MindSpore's parallel strategy profiling writes, per rank, its graph proto as JSON (protobuf's JSON
mapping: 64-bit integers as strings): ``config`` (``rankId``, ``stageId``, ``parallelType`` and
``stageDevices``, the stage's device numbers as the ``size`` of ``dim`` entries) and ``graph``
(``node``: each operator's ``name``, ``opType``, ``scope``, ``fullName``, ``instanceName`` and
``attribute`` list, whose ``gen_strategy`` is the operator's shard strategy, a tuple of one tuple of
integers per input, and ``group`` its communication group). MindInsight's parallel strategy analyser
(mindinsight/profiler/analyser/parallel_strategy_analyser.py and graph.py) reads the files of a stage's
ranks into the graph its parallel strategy view draws: each node with its strategy (``parallel_shard``)
and group; nodes without a name or full name it skips, and so does this reader.

The config is a row of ``mindspore_parallel_config`` and each operator a row of
``mindspore_parallel_operator`` (its strategy as JSON text, NULL where it has none). The rank is the
config's ``rankId``. A place that is not what MindSpore writes fails naming it.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.communication import mapping
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_sql, json_head, load_json, to_json

KIND = "mindspore_parallel_strategy_json"
NAME = re.compile(r"parallel_strategy_(\d{1,9})\.json")
HEAD = re.compile(r'^\{"(config|graph)":')
CONFIG = insert_sql("mindspore_parallel_config",
                    ["source_id", "source_row", "rank_id", "stage_id", "parallel_type", "stage_devices"])
OPERATOR = insert_sql("mindspore_parallel_operator",
                      ["source_id", "source_row", "rank_id", "node_name", "full_name", "op_type", "scope",
                       "instance_name", "strategy", "parallel_group"])


def detect(path) -> bool:
    """MindSpore's file name and an object of its keys."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def _list(path, place: str, value) -> list:
    if not isinstance(value, list):
        raise IngestError(f"{path}: {place}: expected a list")
    return value


def _text(path, place: str, value, default: str | None = None) -> str | None:
    if value is None:
        return default
    if not isinstance(value, str):
        raise IngestError(f"{path}: {place}: expected a string, found {str(value)[:40]!r}")
    return value


def _integer(path, place: str, value) -> int:
    """An integer as protobuf's JSON mapping writes one: a number, or a string of digits (64-bit)."""
    try:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValueError
        return whole(str(value))
    except ValueError:
        raise IngestError(f"{path}: {place}: expected an integer, found {str(value)[:40]!r}") from None


def value_of(path, place: str, proto: dict):
    """A ValueProto as a Python value: tuples and lists as lists, ``intVal`` as an integer, and a scalar
    of another kind (``strVal``, ``boolVal``, ``floatVal``...) as written; None for a type (``typeVal``)."""
    proto = mapping(path, proto, place)
    if proto.get("dtype") in ("DT_TUPLE", "DT_LIST"):
        return [value_of(path, f"{place}.values[{index}]", item)
                for index, item in enumerate(_list(path, f"{place}.values", proto.get("values", [])))]
    if "intVal" in proto:
        return _integer(path, f"{place}.intVal", proto["intVal"])
    scalars = [value for key, value in proto.items() if key.endswith("Val") and key != "typeVal"]
    return scalars[0] if scalars else None


def config_of(path, document: dict) -> tuple[int, int, str | None, str]:
    """(rank, stage, parallel type, the stage's devices as JSON text) of ``config``."""
    config = mapping(path, document.get("config"), "config")
    devices = []
    for at, shape in enumerate(_list(path, "config.stageDevices", config.get("stageDevices", []))):
        place = f"config.stageDevices[{at}]"
        for index, dim in enumerate(_list(path, f"{place}.dim", mapping(path, shape, place).get("dim", []))):
            size = mapping(path, dim, f"{place}.dim[{index}]").get("size", 0)
            devices.append(_integer(path, f"{place}.dim[{index}].size", size))
    return (_integer(path, "config.rankId", config.get("rankId", 0)),
            _integer(path, "config.stageId", config.get("stageId", 0)),
            _text(path, "config.parallelType", config.get("parallelType")), to_json(devices))


def operators(path, document: dict) -> list[tuple]:
    """(name, full name, type, scope, instance name, strategy JSON, group) of every named node, in file order."""
    graph = mapping(path, document.get("graph"), "graph")
    rows = []
    for index, node in enumerate(_list(path, "graph.node", graph.get("node", []))):
        place = f"graph.node[{index}]"
        node = mapping(path, node, place)
        name, full_name = _text(path, f"{place}.name", node.get("name")), _text(path, f"{place}.fullName",
                                                                              node.get("fullName"))
        attributes = {}
        for at, attribute in enumerate(_list(path, f"{place}.attribute", node.get("attribute", []))):
            attribute = mapping(path, attribute, f"{place}.attribute[{at}]")
            key = _text(path, f"{place}.attribute[{at}].name", attribute.get("name"), "")
            attributes[key] = value_of(path, f"{place}.attribute[{at}].value", attribute.get("value"))
        if not name or not full_name:
            continue  # as MindInsight's graph does
        strategy = attributes.get("gen_strategy", attributes.get("in_strategy"))
        group = attributes.get("group")
        rows.append((name, full_name, _text(path, f"{place}.opType", node.get("opType"), ""),
                     _text(path, f"{place}.scope", node.get("scope"), ""),
                     _text(path, f"{place}.instanceName", node.get("instanceName"), ""),
                     None if strategy is None else to_json(strategy), None if group is None else str(group)))
    return rows


def ingest(conn, path, source_id) -> Outcome:
    """Insert the file's config and operators (module doc)."""
    document = mapping(path, load_json(path), "top level")
    rank, stage, parallel_type, devices = config_of(path, document)
    rows = operators(path, document)
    conn.execute(CONFIG, (source_id, 1, rank, stage, parallel_type, devices))
    multirow.insert_rows(conn, OPERATOR, ((source_id, number, rank, *row) for number, row in enumerate(rows, 1)))
    return Outcome(rows=1 + len(rows), rank_id=rank, device_id=rank,
                   detail={"table": "mindspore_parallel_operator", "stage_id": stage})
