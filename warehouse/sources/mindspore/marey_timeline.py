"""ascend_marey_timeline_{step}.json: MindInsight's marey graph of one step (the pipeline-parallel view).

Not a file MindSpore writes: MindInsight's timeline analyser (get_marey_timeline,
mindinsight/profiler/analyser/timeline_analyser.py and timeline_processor.py) computes it from the
devices' ascend_timeline_display_{device}.json for one step, and its test resources keep its answer for
step 1 under this name (tests/st/func/profiler/test_timeline_analyser.py, test_get_marey_timeline).
``json.dumps`` of ``{"maps": {"device{N}": {operator: {"st", "ed", "dur"}}}, "minT", "maxT",
"stage_data": {"stage{N}": {"data": {operator: its spans' min, max and mean over the stage}, "devices":
[...]}}}``: each operator's span on each device in us, the devices' clocks aligned on their first
AllReduce, and the stages as the alignment grouped the devices.

Each operator span is a row of ``mindspore_marey_span`` (as written: aligned us, not a clock); each
stage's device a row of ``mindspore_marey_stage``; ``minT`` and ``maxT`` go to ``source.detail``. The
stage figures are the spans' (query ``mindspore_marey_stages`` computes them), so they are not stored.
The step is the number in the file name. A place that is not what MindInsight writes fails naming it.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit import multirow
from warehouse.sources.kit.communication import mapping
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import insert_sql, json_head, load_json

KIND = "mindspore_marey_timeline_json"
NAME = re.compile(r"ascend_marey_timeline_(\d{1,9})\.json")
HEAD = re.compile(r'^\{"(maps|minT|maxT|stage_data)":')
SPAN = insert_sql("mindspore_marey_span",
                  ["source_id", "source_row", "step", "rank_id", "op_name", "start_us", "end_us", "dur_us"])
STAGE = insert_sql("mindspore_marey_stage", ["source_id", "source_row", "step", "stage_id", "rank_id"])
DEVICE = re.compile(r"device(\d{1,9})")
STAGE_NAME = re.compile(r"stage(\d{1,9})")


def detect(path) -> bool:
    """MindInsight's file name and an object of its keys."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def numbered(path, place: str, name: str, pattern: re.Pattern) -> int:
    """The number of a ``device{N}`` or ``stage{N}`` key."""
    match = pattern.fullmatch(name)
    if match is None:
        raise IngestError(f"{path}: {place}: expected a name like {pattern.pattern!r}, found {name[:40]!r}")
    return whole(match[1])


def figure(path, place: str, value) -> float:
    """A number of the file as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)) or not abs(value) < 1 << 63:
        raise IngestError(f"{path}: {place}: expected a number, found {str(value)[:40]!r}")
    return float(value)


def spans(path, document: dict) -> list[tuple]:
    """(device, operator, start, end, dur) of every operator span, in file order."""
    rows = []
    for device_name, operators in mapping(path, document.get("maps"), "maps").items():
        device = numbered(path, f"maps.{device_name}", device_name, DEVICE)
        for op_name, span in mapping(path, operators, f"maps.{device_name}").items():
            place = f"maps.{device_name}.{op_name}"
            span = mapping(path, span, place)
            rows.append((device, op_name,
                         *(figure(path, f"{place}.{key}", span.get(key)) for key in ("st", "ed", "dur"))))
    return rows


def stages(path, document: dict) -> list[tuple[int, int]]:
    """(stage, device) of every stage's devices, in file order."""
    rows = []
    for stage_name, stage in mapping(path, document.get("stage_data", {}), "stage_data").items():
        place = f"stage_data.{stage_name}"
        number = numbered(path, place, stage_name, STAGE_NAME)
        devices = mapping(path, stage, place).get("devices")
        if not isinstance(devices, list) or not all(isinstance(device, str) for device in devices):
            raise IngestError(f"{path}: {place}.devices: expected a list of device names")
        rows.extend((number, numbered(path, f"{place}.devices", device, DEVICE)) for device in devices)
    return rows


def ingest(conn, path, source_id) -> Outcome:
    """Insert the file's spans and stages (module doc)."""
    step = whole(NAME.fullmatch(Path(path).name.removesuffix(".gz"))[1])
    document = mapping(path, load_json(path), "top level")
    span_rows, stage_rows = spans(path, document), stages(path, document)
    multirow.insert_rows(conn, SPAN, ((source_id, number, step, *row) for number, row in enumerate(span_rows, 1)))
    multirow.insert_rows(conn, STAGE, ((source_id, number, step, *row) for number, row in enumerate(stage_rows, 1)))
    bounds = {key: figure(path, key, document[key]) for key in ("minT", "maxT") if key in document}
    return Outcome(rows=len(span_rows) + len(stage_rows),
                   detail={"table": "mindspore_marey_span", "step": step, **bounds})
