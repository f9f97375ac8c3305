"""flops_summary_{device}.json: the FLOPs figures MindInsight's summary shows for one device.

MindSpore's flops parser (mindspore/profiler/parser/flops_parser.py) writes ``{"FLOPs": ..., "FLOPS":
..., "FLOPS_Utilization": ...}``: the sum of the operators' MFLOPs of flops_{device}.txt, the mean of
their GFLOPS, and the mean per step of the device's utilization of its peak (percent), each rounded
to 3 decimals. MindInsight's flops and parallel analysers read it as is
(tests/st/func/profiler/test_parallel_proposer.py: each rank's FLOPs and FLOPS). One
``mindspore_flops_summary`` row; the audit mindspore_flops_agree reconciles it with the operators.
"""

from __future__ import annotations

import re
from pathlib import Path

from warehouse.sources.base import Outcome
from warehouse.sources.kit.text import insert_sql, json_head
from warehouse.sources.mindspore.device import device_json_figures, device_of

KIND = "mindspore_flops_summary_json"
NAME = re.compile(r"flops_summary_(\d{1,9})\.json")
HEAD = re.compile(r'^\{"(FLOPs|FLOPS|FLOPS_Utilization)":')
INSERT = insert_sql("mindspore_flops_summary",
                    ["source_id", "source_row", "rank_id", "mflops", "gflops_per_s", "utilization_pct"])


def detect(path) -> bool:
    return NAME.fullmatch(Path(path).name.removesuffix(".gz")) is not None and bool(HEAD.match(json_head(path)))


def ingest(conn, path, source_id) -> Outcome:
    rank, device = device_of(path, NAME)
    figures = device_json_figures(path, ("FLOPs", "FLOPS", "FLOPS_Utilization"))
    conn.execute(INSERT, (source_id, 1, rank, *(None if value is None else float(value) for value in figures)))
    return Outcome(rows=1, rank_id=rank, device_id=device, detail={"table": "mindspore_flops_summary"})
