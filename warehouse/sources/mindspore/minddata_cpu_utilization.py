"""minddata_cpu_utilization_{device}.json: the host's CPU use while the data pipeline ran.

MindSpore's MindData profiler samples the host every ``sampling_interval`` ms and writes the sample
times (``time_stamp``), the whole host's figures (``device_info``: user, sys, io and idle
utilization in percent of its CPUs, runnable processes, context switches), the training process's
(``process_info``: user and sys utilization) and each pipeline operator's (``op_info``: ``op_id``
and its ``metrics``; op_id -1 is no pipeline operator). Every sample of every figure is one
``mindspore_minddata_cpu`` row, in its series' order. MindInsight's proposer
(mindinsight/profiler/proposer/allproposers/minddata_proposer.py) judges the host busy when the
mean idle utilization leaves more than 80 % of it active.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.text import insert_sql, json_head, load_json_object
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_minddata_cpu_json"
NAME = re.compile(r"minddata_cpu_utilization_(\d{1,9})\.json")
HEAD = re.compile(r'^\{"(sampling_interval|cpu_processor_num|time_stamp|device_info)":')
INSERT = insert_sql("mindspore_minddata_cpu",
                    ["source_id", "source_row", "rank_id", "scope", "op_id", "metric", "time_stamp", "value"])


def detect(path) -> bool:
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def ingest(conn, path, source_id) -> Outcome:
    rank, device = device_of(path, NAME)
    document = load_json_object(path)
    times = _numbers(path, "time_stamp", document.get("time_stamp", []))
    series = [("device", None, "device_info", document.get("device_info", {})),
              ("process", None, "process_info", document.get("process_info", {}))]
    operators = document.get("op_info", [])
    if not isinstance(operators, list):
        raise IngestError(f"{path}: op_info: expected a list")
    for index, item in enumerate(operators):
        if not isinstance(item, dict) or not _is_whole(item.get("op_id")):
            raise IngestError(f"{path}: op_info[{index}]: expected an object with a whole op_id")
        series.append(("op", item["op_id"], f"op_info[{index}].metrics", item.get("metrics", {})))
    rows = []
    for scope, op_id, place, metrics in series:
        if not isinstance(metrics, dict):
            raise IngestError(f"{path}: {place}: expected an object")
        for metric, values in metrics.items():
            for number, value in enumerate(_numbers(path, f"{place}.{metric}", values), 1):
                stamp = times[number - 1] if number <= len(times) else None
                rows.append((source_id, number, rank, scope, op_id, metric, stamp, value))
    conn.executemany(INSERT, rows)
    detail = {"table": "mindspore_minddata_cpu", **{
        key: document[key] for key in ("sampling_interval", "cpu_processor_num") if _is_whole(document.get(key))}}
    return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail=detail)


def _numbers(path, place: str, values) -> list:
    """A list of numbers of the file (decimals as floats).

    :raises IngestError: naming ``place`` when it is not a list of numbers.
    """
    if not isinstance(values, list) or not all(_is_whole(value) or isinstance(value, Decimal) for value in values):
        raise IngestError(f"{path}: {place}: expected a list of numbers")
    return [float(value) if isinstance(value, Decimal) else value for value in values]


def _is_whole(value) -> bool:
    """A whole number SQLite can store."""
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 1 << 63
