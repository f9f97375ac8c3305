"""The HTML report's step inspector holds every step of the steps table, each with its kernels.

On a 4-rank torch_npu text export (kernel_details.csv with a Step Id per kernel, trace_view.json with
the step markers, step_trace_time.csv and an analysis.db beside each rank's files, as torch_npu
writes them) every rank's every step holds the kernels kernel_step gives it. The run's embedding
budget used to be spent in rank order, so a big run's later ranks showed an empty timeline; it is
now shared evenly among the steps. Rows of one rank and step each keep their detail."""

from __future__ import annotations

import json
import re

import pytest

from tests.factories.analysis_db import AnalysisDbFactory
from tests.factories.text_exports import (
    CommunicationJsonFactory,
    KernelDetailsFactory,
    KernelRowFactory,
    ProfilerInfoFactory,
    StepTraceTimeFactory,
)
from tests.factories.trace_json import EventFactory, TraceFileFactory
from warehouse import db
from warehouse.analysis.steps import StepBreakdown
from warehouse.cli import cli
from warehouse.report import detail

RANKS = range(4)
#: the profiled steps (a schedule's active steps: numbered from 12, as a real run's are)
STEPS = (12, 13, 14)
#: kernels per step: rank r runs 10 + r (so a rank's count cannot pass for another's)
KERNELS = 10
T0_US = 1_736_408_883_700_000
STEP_US = 1_000


def write_rank(run, rank: int) -> None:
    """One rank's text export: per step a ProfilerStep#N marker and 10 + rank kernels of 5 us, 20 us apart."""
    folder = run / f"rank{rank}_ascend_pt"
    output = folder / "ASCEND_PROFILER_OUTPUT"
    info = ProfilerInfoFactory.build(path=None).document | {"rank_id": rank}
    ProfilerInfoFactory(path=folder / f"profiler_info_{rank}.json", document=info)
    kernels, markers, summary = [], [], []
    for index, step in enumerate(STEPS):
        start = T0_US + index * STEP_US
        markers.append(EventFactory(name=f"ProfilerStep#{step}", cat="cpu_op", ts=f"{start}.000", dur=float(STEP_US)))
        kernels += [KernelRowFactory(step_id=str(step), start=f"{start + 10 + 20 * k}.000", duration="5.000")
                    for k in range(KERNELS + rank)]
        summary.append(StepTraceTimeFactory.build(path=None).rows[0] | {"Step": str(step)})
    KernelDetailsFactory(path=output / "kernel_details.csv", rows=kernels)
    TraceFileFactory(path=output / "trace_view.json", events=markers)
    StepTraceTimeFactory(path=output / "step_trace_time.csv", rows=summary)
    communication = CommunicationJsonFactory(path=output / "communication.json")
    AnalysisDbFactory(path=output / "analysis.db", step_trace=summary, communication=communication.document)


@pytest.fixture
def report(tmp_path, runner):
    """``report()``: (the inspector's steps, kernel_step's kernel ids per rank and step) of the export's report."""
    run = tmp_path / "run"
    for rank in RANKS:
        write_rank(run, rank)
    warehouse = tmp_path / "warehouse.db"
    result = runner.invoke(cli, ["ingest", str(run), "--db", str(warehouse), "-q", "-j", "1"])
    assert result.exit_code == 0, result.output
    conn = db.connect_readonly(warehouse)
    ids = {}
    for rank, step, kernel in conn.execute("SELECT rank_id, step_id, row_id FROM kernel_step WHERE table_name = "
                                           "'kernel' AND step_id IS NOT NULL ORDER BY ts"):
        ids.setdefault((str(rank), str(step)), []).append(str(kernel))
    conn.close()

    def make():
        out = tmp_path / "report.html"
        result = runner.invoke(cli, ["report", "--db", str(warehouse), "-o", str(out)])
        assert result.exit_code == 0, result.output
        block = re.search(r'<script type="application/json" id="wh-steps">(.*?)</script>', out.read_text(), re.S)[1]
        data = json.loads(block)
        assert len(data["runs"]) == 1
        return data, ids

    return make


def test_every_step_of_every_rank_holds_its_kernels(report):
    data, ids = report()
    id_field = data["fields"].index("id")
    steps = data["runs"][0]["steps"]
    assert [(s["rank"], s["step"]) for s in steps] == [(str(r), str(s)) for r in RANKS for s in STEPS]
    for s in steps:
        kernels = ids[s["rank"], s["step"]]
        assert len(kernels) == KERNELS + int(s["rank"])
        assert [k[3][id_field] for k in s["kernels"]] == kernels  # every one, in start order
        assert s["note"] == f"{len(kernels)} kernels and 0 HCCL operators in the step."


def test_a_run_past_its_budget_shares_it_among_every_step(report, monkeypatch):
    """A budget of 40 over 12 steps: 3 kernels each (the longest, here the first three of equal
    length), rank 3's last step as rank 0's first; the note says how many the step ran."""
    monkeypatch.setattr(detail, "MAX_KERNELS_PER_RUN", 40)
    data, ids = report()
    id_field = data["fields"].index("id")
    for s in data["runs"][0]["steps"]:
        kernels = ids[s["rank"], s["step"]]
        assert [k[3][id_field] for k in s["kernels"]] == kernels[:3]
        assert s["note"] == (f"The timeline shows the 3 longest of the step's {len(kernels)} kernels and "
                             "0 HCCL operators.")


def test_rows_of_one_rank_and_step_keep_a_detail_each(warehouse_db):
    """A summary without step numbers (msprof's analysis.dat: a row per device, rank and step unknown)
    gives the steps table several rows of one rank and step: each keeps its detail, so the table's
    links (by row position) open the right row."""
    rows = [StepBreakdown(run_id=1, rank_id=-1, step_id=None, start_ns=None, end_ns=None, duration_ns=ns,
                          computing_ns=0, communication_not_overlapped_ns=0, overlapped_ns=0, communication_ns=0,
                          free_ns=0, preparing_ns=0, stage_ns=ns, bubble_ns=0, basis="analysis_db")
            for ns in (271_092_540, 255_784_300, 218_790_020)]
    steps = detail.run_detail(warehouse_db, 1, rows).steps
    assert [s.step.duration_ns for s in steps] == [271_092_540, 255_784_300, 218_790_020]
