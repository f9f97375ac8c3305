"""MindSpore's summaries: hccl_raw_{device}.csv into ``mindspore_hccl_step`` / ``_link`` / ``_op``,
flops_{device}.txt into ``mindspore_flops_op``, flops_summary_{device}.json into
``mindspore_flops_summary`` (and the audit mindspore_flops_agree), ascend / gpu_timeline_summary into
``mindspore_timeline_summary``.

The real files' figures are those MindInsight's tests state for the same files (mindspore-ai/mindinsight
@ e233ee19a350): tests/st/func/profiler/test_parallel_proposer.py (cluster_propose: each rank's link
summary, FLOPs and FLOPS), tests/st/func/profiler/test_timeline_analyser.py and test_flops_analyser.py
(profiler/: the summaries as written).
"""

from __future__ import annotations

import pytest

from tests.factories.mindspore_summaries import FlopsFactory, FlopsSummaryFactory, HcclRawFactory, TimelineSummaryFactory
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse import audits, queries
from warehouse.ingest import ingest_file, ingest_paths

#: test_get_rank_link_summary's expected rows, rank by rank (two links each): link, type, ms, KB, KB/s
LINK_SUMMARY = [
    ["1-0", "SDMA", 2.200693333333333, 46069.41866666666, 188040273.54802418],
    ["0-0", "SDMA", 0.06816166666666665, 554.9653333333334, 275806635.05770296],
    ["0-1", "SDMA", 0.21956333333333333, 1109.9306666666669, 107910491.88737924],
    ["1-1", "SDMA", 2.061693333333333, 45514.45333333334, 356004676.4480063],
    ["1-0", "SDMA", 2.781570000000002, 48309.248000000276, 656740006.8032151],
    ["0-0", "SDMA", 1.997394999999999, 62691.32799999992, 1109248782.654752],
    ["0-1", "SDMA", 4.482249999999995, 86845.95200000014, 724225040.2054026],
    ["1-1", "SDMA", 0.3052400000000004, 24154.624000000138, 1045243926.9584681],
]


def flops_agree(conn) -> list[tuple]:
    audit = {audit.name: audit for audit in audits.load_audits()}["mindspore_flops_agree"]
    return audits.run_audit(conn, audit).examples


def test_hccl_raw_gives_steps_links_and_operators_but_not_the_mean(warehouse_db, tmp_path):
    result = ingest_file(warehouse_db, HcclRawFactory(path=tmp_path / "hccl_raw_2.csv").path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_hccl_raw_csv", 2 + 4 + 3)
    assert warehouse_db.execute("SELECT step_id, communication_ns, wait_ns FROM mindspore_hccl_step ORDER BY step_id"
                                ).fetchall() == [(1, 7_933_340, 2_000_819_320), (2, 1_624_590, 9_272_800)]
    assert warehouse_db.execute(
        "SELECT src_rank, dst_rank, link_type, time_ns, size_bytes, bandwidth_bytes_per_s FROM mindspore_hccl_link "
        "WHERE step_id = 1 ORDER BY src_rank").fetchall() == [
        (0, 0, "SDMA", 2_744_130, 99_171_840, pytest.approx(1610922525902.2422)),
        (1, 0, "SDMA", 5_189_210, 95_579_136, pytest.approx(916792464309.6149))]
    assert warehouse_db.execute("SELECT step_id, name, communication_ns, wait_ns FROM mindspore_hccl_op "
                                "ORDER BY step_id, name").fetchall() == [
        (1, "stream_32_0_AllReduce-op17602", 3420, 15050), (2, "stream_32_0_AllReduce-op17602", 3420, 15050),
        (2, "stream_35_7_AllReduce-op2892", 3320, 30)]
    assert '"mean_record_lines": [4]' in warehouse_db.execute("SELECT detail FROM source").fetchone()[0]


def test_real_cluster_gives_mindinsight_s_link_summary_and_flops(warehouse_db, realdata):
    results = ingest_paths(warehouse_db, [realdata / "mindinsight" / "cluster_propose"])
    assert not [r.error for r in results if r.status == "failed"]
    columns, rows = queries.get("mindspore_hccl_links").run(warehouse_db, {})
    # MindInsight lists each rank's links in the file's order; the query orders them by ranks
    ours = sorted([f"{r[2]}-{r[3]}", r[4], r[6] / 1e6, r[7] / 1e3, r[8] / 1e3, r[1]] for r in rows)
    theirs = sorted([*link, rank] for rank in range(4) for link in LINK_SUMMARY[2 * rank:2 * rank + 2])
    assert [row[:2] + row[5:] for row in ours] == [row[:2] + row[5:] for row in theirs]
    for mine, expected in zip(ours, theirs):
        assert mine[2:5] == pytest.approx(expected[2:5], rel=1e-12)
    # test_get_rank_flops and test_get_rank_flops_per_second
    assert warehouse_db.execute("SELECT rank_id, mflops, gflops_per_s FROM mindspore_flops_summary ORDER BY rank_id"
                                ).fetchall() == [(0, 107146.763, 5385.552), (1, 107145.034, 5386.261),
                                                 (2, 329608.369, 4859.39), (3, 329612.4, 4897.642)]


def test_the_flops_summary_agrees_with_its_operators(warehouse_db, tmp_path):
    FlopsFactory(path=tmp_path / "profiler" / "flops_0.txt")
    summary = FlopsSummaryFactory(path=tmp_path / "profiler" / "flops_summary_0.json")
    ingest_paths(warehouse_db, [tmp_path / "profiler"])
    assert warehouse_db.execute("SELECT count(*), sum(mflops), avg(gflops_per_s), max(utilization_pct), "
                                "count(cube_mflops) FROM mindspore_flops_op").fetchone() == (3, 30.5, 4.0, 3.9, 0)
    assert flops_agree(warehouse_db) == []
    summary.path.write_bytes(summary.data.replace(b"30.5", b"31.5"))
    assert ingest_file(warehouse_db, summary.path).status == "ok"
    assert [row[1:2] + row[4:7] for row in flops_agree(warehouse_db)] == [(0, 3, 31.5, 30.5)]


def test_real_flops_files_in_both_layouts(warehouse_db, realdata):
    results = {r.path.name: r for r in ingest_paths(warehouse_db, [realdata / "mindinsight" / "profiler"])}
    assert (results["flops_0.txt"].rows, results["flops_1.txt"].rows) == (4, 10)
    # the cube/vector layout adds both units up: 333 + 333 MFLOPs per operator
    assert warehouse_db.execute("SELECT rank_id, count(*), sum(mflops), sum(cube_mflops), sum(vector_mflops) "
                                "FROM mindspore_flops_op GROUP BY rank_id ORDER BY rank_id").fetchall() == [
        (0, 4, 1332.0, None, None), (1, 10, 6660.0, 3330.0, 3330.0)]
    # the summary beside flops_0.txt is another run's (8167.743 MFLOPs against 4 x 333): the audit says so
    assert [row[1:2] + row[4:7] for row in flops_agree(warehouse_db)] == [(0, 4, 8167.743, 1332.0)]
    # test_timeline_analyser.py's get_timeline_summary: the files' own figures
    assert warehouse_db.execute("SELECT device_type, total_ns, streams, operators, operator_runs, max_scope_depth "
                                "FROM mindspore_timeline_summary ORDER BY device_type").fetchall() == [
        ("ascend", 23_147_014, 2, 213, 112, 0), ("gpu", 3_875_639, 1, 66, 66, 0)]


def test_the_older_timeline_summary_name_is_ascend_s(warehouse_db, tmp_path):
    """MindInsight's run_1 timeline_summary_1.json (the factory writes it whole), the name before ascend_: its four
    figures as MindInsight's timeline analyser of then returned them, total_time in us."""
    written = TimelineSummaryFactory(path=tmp_path / "timeline_summary_1.json", older=True)
    assert written.data == (b'{"total_time": 1771382.849999995, "num_of_streams": 11, "num_of_ops": 199, '
                            b'"op_exe_times": 2817}')
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind) == ("ok", "mindspore_timeline_summary_json")
    assert warehouse_db.execute("SELECT rank_id, device_type, total_ns, streams, operators, operator_runs, "
                                "max_scope_depth FROM mindspore_timeline_summary").fetchall() == [
        (1, "ascend", 1_771_382_850, 11, 199, 2817, None)]


@pytest.mark.parametrize(("factory", "name", "change", "reason", "table"), (
    (HcclRawFactory, "hccl_raw_0.csv", lambda data: data.replace(b'"{""1-0""', b'"{""1-0', 1),
     "line 2: not JSON", "mindspore_hccl_step"),
    (HcclRawFactory, "hccl_raw_0.csv", lambda data: data.replace(b'""1-0""', b'""1to0""', 1),
     "line 2: link_info: '1to0': expected '<src>-<dst>' with an object of transports", "mindspore_hccl_link"),
    (FlopsFactory, "flops_0.txt", lambda data: data.replace(b", 8.0, 3.9", b", 8.0"),
     "line 3: 3 fields for a header of 4", "mindspore_flops_op"),
    (FlopsFactory, "flops_0.txt", lambda data: data.replace(b"20.0", b"2O.0"),
     "line 3: not a number: '2O.0'", "mindspore_flops_op"),
    (FlopsSummaryFactory, "flops_summary_0.json", lambda data: data.replace(b"30.5", b'"30.5"'),
     "FLOPs: expected a number, found '30.5'", "mindspore_flops_summary"),
    (TimelineSummaryFactory, "ascend_timeline_summary_0.json", lambda data: data.replace(b"213", b"21.3"),
     "num_of_ops: expected a whole number, found 21.3", "mindspore_timeline_summary"),
    (TimelineSummaryFactory, "gpu_timeline_summary_0.json", lambda data: data[:30],
     "byte 30: invalid JSON", "mindspore_timeline_summary"),
))
def test_a_hostile_summary_fails_naming_the_file_and_the_place(warehouse_db, tmp_path, factory, name, change, reason,
                                                               table):
    written = factory(path=tmp_path / name)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, table)
