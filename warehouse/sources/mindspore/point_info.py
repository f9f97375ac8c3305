"""step_trace_point_info.json / step_trace_point_info_{device}.json: the operators that mark a step's points.

MindSpore's step trace parser records which operator starts the forward pass (``fp_start``) and which
ends the backward pass (``bp_end``), as ``json.dump`` writes a dict: MindInsight's step trace analyser
shows them beside the steps (its tests/st/func/profiler/test_analyse.py reads run_1's). The older
profiler wrote one file per folder, without a device; MindInsight reads the device's one first where
there is one. They describe the capture, so each value is a row of ``capture_info`` (the table of a
capture's metadata files, :mod:`warehouse.sources.capture`), its key the path to it (``fp_start``), its
value as written. The device is the number in the file name, else the rank the folders say. A file that
is not a JSON object fails naming the place.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.sources.base import Outcome
from warehouse.sources.kit.capture_info import insert_values
from warehouse.sources.mindspore.device import device_of

KIND = "mindspore_point_info_json"
NAME = re.compile(r"step_trace_point_info(?:_\d{1,9})?\.json")
#: the device of the later name
DEVICE = re.compile(r"step_trace_point_info_(\d{1,9})\.json")


def detect(path) -> bool:
    """MindSpore's file name (a ``.gz`` suffix ignored)."""
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None


def ingest(conn, path, source_id) -> Outcome:
    """Insert every value of the file (module doc)."""
    rank, device = device_of(path, DEVICE)
    rows = insert_values(conn, path, source_id, rank)
    return Outcome(rows=rows, rank_id=rank, device_id=device, detail={"table": "capture_info"})
