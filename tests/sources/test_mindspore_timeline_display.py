"""ascend_timeline_display_{device}.json (MindSpore's timeline of one device) read as a trace of its profiler
folder's run and rank, and reconciled with MindSpore's kernel timeline by the audit
mindspore_timeline_display_agrees.

The real file is MindInsight's tests/utils/resource/profiler/ascend_timeline_display_0.json (shared/realdata/
mindinsight/profiler, PROVENANCE.md): three events, the data pipeline's InitData and GetNext and the operator
AssignAdd-op142 on stream 519, whose start 6042909.559994936 us and duration 3.1 us are also run_2's
output_timeline_data_1.txt's first kernel (Default/AssignAdd-op142,519,154907895.95956,0.0031)."""

from __future__ import annotations

import shutil

import pytest

from tests.factories.mindspore import (
    HWTS_TASKS,
    TimelineDataFactory,
    TimelineDisplayFactory,
    framework_timeline,
    timeline_display,
)
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_paths

NAME = "ascend_timeline_display_0.json"
#: the slices of one input, in time order
SLICES = ("SELECT t.tid, s.name, s.ts, s.dur, json_extract(s.args, '$.fullname') FROM slice AS s "
          "JOIN thread AS t ON t.id = s.thread_id WHERE s.source_id = ? ORDER BY s.ts")
DISPLAY = "SELECT id FROM source WHERE kind = 'mindspore_timeline_json'"


def agreement(conn) -> list[tuple]:
    return audit_examples(conn, "mindspore_timeline_display_agrees")


def test_the_real_timeline_is_the_profiler_folder_s_rank_0(warehouse_db, realdata, tmp_path):
    folder = shutil.copytree(realdata / "mindinsight" / "profiler", tmp_path / "profiler")
    results = {str(r.path).rsplit("/", 1)[-1]: r for r in ingest_paths(warehouse_db, [folder])}
    assert (results[NAME].kind, results[NAME].status) == ("mindspore_timeline_json", "ok")
    display = "SELECT run_id, rank_id, device_id FROM source WHERE kind = 'mindspore_timeline_json' ORDER BY path"
    # both device timelines (the Ascend's and the GPU's of MindInsight's resources) are device 0's of the one run
    assert warehouse_db.execute(display).fetchall() == [(1, 0, 0), (1, 0, 0)]
    assert warehouse_db.execute("SELECT count(*), min(profiler) FROM run").fetchone() == (1, "MindSpore")
    source = warehouse_db.execute("SELECT id FROM source WHERE path LIKE '%ascend_timeline_display_0.json'").fetchone()
    assert warehouse_db.execute(SLICES, source).fetchall() == [
        ("0", "InitData", 0, 160000, None), ("0", "GetNext", 6042139000, 518000, None),
        ("519", "AssignAdd-op142", 6042909560, 3100, "Default/AssignAdd-op142")]
    # the timeline answers the rank's timeline, MindSpore's step trace its steps (20 of device 0)
    facts = "SELECT fact, kind FROM answer_source WHERE rank_id = 0 AND fact IN ('step', 'timeline') ORDER BY fact"
    assert sorted(set(warehouse_db.execute(facts).fetchall())) == [
        ("step", "mindspore_step_trace_csv"), ("timeline", "mindspore_timeline_json")]
    assert warehouse_db.execute("SELECT count(*) FROM step_answer WHERE rank_id = 0").fetchone() == (20,)


def test_the_display_of_the_kernel_timeline_agrees(warehouse_db, tmp_path):
    TimelineDataFactory(path=tmp_path / "profiler" / "output_timeline_data_0.txt")
    written = TimelineDisplayFactory(path=tmp_path / "profiler" / NAME)
    assert {r.status for r in ingest_paths(warehouse_db, [tmp_path / "profiler"])} == {"ok"}
    kernels = warehouse_db.execute("SELECT count(*) FROM kernel").fetchone()[0]
    operators = warehouse_db.execute("SELECT count(*) FROM slice WHERE json_extract(args, '$.fullname') IS NOT NULL")
    assert operators.fetchone()[0] == kernels == len(written.rows) > 2
    assert agreement(warehouse_db) == []
    # the GetNext record 50 us before the first kernel is the display's zero
    first = warehouse_db.execute(SLICES + " LIMIT 2", warehouse_db.execute(DISPLAY).fetchone()).fetchall()
    assert [(row[1], row[2]) for row in first] == [("GetNext", 0), (first[1][1], 50000)]


def test_a_display_that_differs_from_the_kernel_timeline_is_listed(warehouse_db, tmp_path):
    rows = framework_timeline(HWTS_TASKS)  # MatMul-op38 on stream 535, Cast-op41 on 537, MatMul-op38 again
    TimelineDataFactory(path=tmp_path / "profiler" / "output_timeline_data_0.txt", rows=rows)
    changed = [("Default/Cast-op41", *rows[0][1:]),  # named as another operator
               (*rows[1][:3], rows[1][3] + 3)]  # 3 cycles (30 ns) longer; the last kernel left out
    (tmp_path / "profiler").joinpath(NAME).write_bytes(timeline_display(changed))
    ingest_paths(warehouse_db, [tmp_path / "profiler"])
    assert [row[2:9] for row in agreement(warehouse_db)] == [
        ("535", 1, "name", "Cast-op41", "MatMul-op38", 64220, 64220),
        ("535", 2, "missing from the display", None, "MatMul-op38", None, 20000),
        ("537", 1, "dur", "Cast-op41", "Cast-op41", 12370, 12340)]


@pytest.mark.parametrize(("change", "reason"), [
    (lambda data: data.replace(b'"ph": "X", "tid": "0"', b'"ph": "X", "tid": "0",,', 1), "byte "),
    (lambda data: data.replace(b'"dur": ', b'"dur": "x', 1), "byte "),
])
def test_a_hostile_display_fails_naming_the_byte(warehouse_db, tmp_path, change, reason):
    written = TimelineDisplayFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "_slice", "thread")
