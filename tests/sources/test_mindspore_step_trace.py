"""step_trace_raw_{device}_detail_time.csv (MindSpore) into ``step``, ``mindspore_step_trace`` and
``mindspore_step_stream``."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories.mindspore import StepTraceRawFactory
from warehouse.ingest import ingest_file

NAME = "step_trace_raw_3_detail_time.csv"


def _steps(conn, source_id):
    return conn.execute(
        "SELECT step_id, start_ns, end_ns, total_ns, fp_point_ns, bp_point_ns, iteration_interval_ns, fp_and_bp_ns, "
        "tail_ns FROM mindspore_step_trace WHERE source_id = ? ORDER BY step_id", (source_id,)).fetchall()


def test_steps_phases_and_operators_in_ns_on_the_device_of_the_file_name(warehouse_db, tmp_path):
    path = tmp_path / "profiler" / NAME
    StepTraceRawFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_step_trace_csv", 12)
    # cycles of 100 MHz: 10 ns each; step 1 starts at the forward pass (no interval)
    assert _steps(warehouse_db, result.source_id) == [
        (1, 450000300810, 450040331280, 40030470, 450000300810, 450017330250, 0, 17029440, 23001030),
        (2, 450040331280, 450170856580, 130525300, 450130709370, 450147853140, 90378090, 17143770, 23003440),
        (3, 450170856580, 450301369660, 130513080, 450261166130, 450278355080, 90309550, 17188950, 23014580),
    ]
    assert warehouse_db.execute("SELECT rank_id, device_id, detail FROM source").fetchone() == (
        3, 3, '{"table": "mindspore_step_trace"}')
    # the average record (line 5): steps 2 and 3's phases averaged in cycles and rounded, as MindSpore does
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, total_ns, iteration_interval_ns, fp_and_bp_ns, tail_ns FROM mindspore_step_average"
    ).fetchall() == [(4, 3, 130519190, 90343820, 17166360, 23009010)]
    assert warehouse_db.execute("SELECT rank_id, step_id, start_ns, end_ns FROM step ORDER BY step_id").fetchall() == [
        (3, 1, 450000300810, 450040331280), (3, 2, 450040331280, 450170856580), (3, 3, 450170856580, 450301369660)]
    # the second operator wrote zeros in step 3: it did not run there
    assert warehouse_db.execute(
        "SELECT step_id, stream_id, name, start_ns, end_ns, duration_ns FROM mindspore_step_stream "
        "WHERE step_id > 1 ORDER BY step_id, name").fetchall() == [
        (2, 48, "stream_48_0_AllReduce-op663", 450130835350, 450131011310, 175960),
        (2, 49, "stream_49_1_AllReduce-op794", 450140890080, 450143871100, 2981020),
        (3, 48, "stream_48_0_AllReduce-op663", 450261292110, 450261468070, 175960),
    ]


def test_the_older_parallel_columns_are_read_start_end_duration(warehouse_db, tmp_path):
    path = tmp_path / NAME
    StepTraceRawFactory(path=path, layout="parallel", groups=(("stream_10_parallel_2", 5, 7),), idle=frozenset())
    ingest_file(warehouse_db, path)
    assert warehouse_db.execute(
        "SELECT stream_id, name, start_ns - 450000300810, duration_ns FROM mindspore_step_stream WHERE step_id = 1"
    ).fetchall() == [(10, "stream_10_parallel_2", 50, 70)]


def test_a_file_name_without_a_device_leaves_the_rank_unknown(warehouse_db, tmp_path):
    path = tmp_path / "step_trace.csv"
    StepTraceRawFactory(path=path, average=False)
    result = ingest_file(warehouse_db, path)
    assert result.status == "ok"
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source").fetchone() == (-1, None)
    assert warehouse_db.execute("SELECT DISTINCT rank_id FROM step").fetchall() == [(-1,)]


@pytest.mark.parametrize(("change", "reason"), [
    (lambda lines: lines + [lines[2]], "line 6: a record after the average record (line 5)"),
    (lambda lines: lines[:3] + [lines[3][:40]], "line 4: 5 fields for a header of 15"),
    (lambda lines: [lines[0].replace("stream_48_0_AllReduce-op663_end_point", "x")] + lines[1:],
     "line 1: column 'stream_48_0_AllReduce-op663_start_point' without"),
    (lambda lines: [lines[0], "x" + lines[1]] + lines[2:], "line 2: column 'step_num': not a step number: 'x1'"),
    (lambda lines: [lines[0], lines[1].replace(",45000030081,", ",,", 1)] + lines[2:],
     "line 2: a step without its start_point or end_point"),
    (lambda lines: lines[:4] + [",".join("x" if i == 3 else f for i, f in enumerate(lines[4].split(",")))],
     "line 5: column 'total':"),
])
def test_a_hostile_step_trace_fails_naming_the_line(warehouse_db, tmp_path, change, reason):
    written = StepTraceRawFactory(path=tmp_path / NAME)
    written.path.write_text("\n".join(change(written.data.decode().splitlines())) + "\n")
    result = ingest_file(warehouse_db, written.path)
    assert result.status == "failed" and result.error.startswith(f"{written.path}: {reason}"), result.error
    assert warehouse_db.execute("SELECT count(*) FROM step").fetchone() == (0,)


def test_real_files_give_mindspore_s_steps_and_phases(warehouse_db, realdata):
    """Figures from the files' own columns (MindInsight's tests/utils/resource/profiler and cluster_propose)."""
    folder = realdata / "mindinsight"
    results = {name: ingest_file(warehouse_db, folder / name) for name in (
        "profiler/step_trace_raw_0_detail_time.csv", "profiler/step_trace_raw_10_detail_time.csv",
        "cluster_propose/step_trace_raw_2_detail_time.csv")}
    assert {name: result.status for name, result in results.items()} == dict.fromkeys(results, "ok")
    device_0 = results["profiler/step_trace_raw_0_detail_time.csv"].source_id
    steps = _steps(warehouse_db, device_0)
    # 20 steps; step 2's record: iteration_interval 9037809, fp_and_bp 1714377, tail 2300344 cycles
    assert len(steps) == 20
    assert steps[1][6:] == (90378090, 17143770, 23003440)
    assert all(interval + fp_and_bp + tail == total for _, _, _, total, _, _, interval, fp_and_bp, tail in steps)
    # the file's average record (line 22) is the mean of steps 2-20 (total 13045611 cycles)
    mean = round(sum(Decimal(s[3]) for s in steps[1:]) / 19 / 10)
    assert mean == 13045611
    # device 10: 40 steps, its four parallel operators idle (zeros) from step 21 on
    assert warehouse_db.execute(
        "SELECT count(*), count(DISTINCT step_id), max(step_id), min(stream_id), max(stream_id) "
        "FROM mindspore_step_stream JOIN source AS s ON s.id = source_id WHERE s.device_id = 10").fetchone() == (
        80, 20, 20, 10, 11)
    # a pipeline-parallel rank cut to 5 steps: 349 receive / reduce operators in each
    rank_2 = results["cluster_propose/step_trace_raw_2_detail_time.csv"].source_id
    assert warehouse_db.execute(
        "SELECT count(DISTINCT step_id), count(*) FROM mindspore_step_stream WHERE source_id = ?",
        (rank_2,)).fetchone() == (5, 5 * 349)
    assert _steps(warehouse_db, rank_2)[0][6:] == (0, 2156176440, 7671920)
    # its average record is about the uncut run: an iteration interval of 243180 cycles where steps 2-5
    # average 206977.5 (MindInsight's test_parallel_proposer.py reads 2.4318 ms from it)
    assert warehouse_db.execute(
        "SELECT iteration_interval_ns, total_ns FROM mindspore_step_average WHERE source_id = ?", (rank_2,)
    ).fetchone() == (2431800, 180271380)
    assert sum(step[6] for step in _steps(warehouse_db, rank_2)[1:]) / 4 == 2069775
    assert warehouse_db.execute("SELECT rank_id, count(*) FROM step GROUP BY rank_id").fetchall() == [
        (0, 20), (2, 5), (10, 40)]
