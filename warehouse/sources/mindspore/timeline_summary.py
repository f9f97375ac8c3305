"""ascend_timeline_summary_{device}.json / gpu_timeline_summary_{device}.json: MindSpore's timeline summary.

MindSpore's timeline generators write, beside the timeline (ascend_timeline_display_{device}.json, a
Chrome trace read as any trace), the figures MindInsight's timeline page shows above it
(mindinsight/profiler/analyser/timeline_analyser.py, get_timeline_summary; its
tests/st/func/profiler/test_timeline_analyser.py expects the file's own figures): ``total_time`` (us),
``num_of_streams``, ``num_of_ops``, ``op_exe_times``, ``max_scope_name_num``. One
``mindspore_timeline_summary`` row.

Its older name is ``timeline_summary_{device}.json`` (MindInsight's run_1 resources: the profiler of then,
Ascend's only, wrote it beside ``timeline_display_{device}.json`` with the first four figures, its
total_time in us as now; MindInsight's timeline analyser of then read it by that name): device type ascend.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.text import insert_sql, json_head, us_to_ns
from warehouse.sources.mindspore.device import device_json_figures, device_of

KIND = "mindspore_timeline_summary_json"
#: the name, its device type absent in the older one (Ascend's)
NAME = re.compile(r"(?:(ascend|gpu)_)?timeline_summary_(\d{1,9})\.json")
DEVICE = re.compile(r"(?:(?:ascend|gpu)_)?timeline_summary_(\d{1,9})\.json")
HEAD = re.compile(r'^\{"(total_time|num_of_streams|num_of_ops|op_exe_times|max_scope_name_num)":')
COUNTS = ("num_of_streams", "num_of_ops", "op_exe_times", "max_scope_name_num")
INSERT = insert_sql("mindspore_timeline_summary", ["source_id", "source_row", "rank_id", "device_type", "total_ns",
                                                   "streams", "operators", "operator_runs", "max_scope_depth"])


def detect(path) -> bool:
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def ingest(conn, path, source_id) -> Outcome:
    rank, device = device_of(path, DEVICE)
    total, *counts = device_json_figures(path, ("total_time", *COUNTS))
    for key, count in zip(COUNTS, counts):
        if count is not None and count != int(count):
            raise IngestError(f"{path}: {key}: expected a whole number, found {count}")
    try:
        total_ns = us_to_ns(total)
    except ValueError as exc:
        raise IngestError(f"{path}: total_time: {exc}") from None
    device_type = NAME.fullmatch(Path(path).name.removesuffix(".gz"))[1] or "ascend"
    conn.execute(INSERT, (source_id, 1, rank, device_type, total_ns, *(None if c is None else int(c) for c in counts)))
    return Outcome(rows=1, rank_id=rank, device_id=device, detail={"table": "mindspore_timeline_summary"})
