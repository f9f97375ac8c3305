"""ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}.csv (one rank's computation and communication per
step of a parallel run, and their mean) into ``mindspore_cluster_step``."""

from __future__ import annotations

import pytest

from tests.factories.mindspore_summaries import ClusterAnalyseFactory
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file, ingest_paths

NAME = "ascend_cluster_analyse_pipeline-parallel_2_4_3.csv"
ROWS = ("SELECT source_row, rank_id, parallel_mode, stage_num, rank_size, step_id, computation_ns, "
        "communication_alone_ns, stage_ns, receive_alone_ns, collective_communication_alone_ns "
        "FROM mindspore_cluster_step ORDER BY source_row")


def test_each_step_and_the_mean_of_one_rank(warehouse_db, tmp_path):
    written = ClusterAnalyseFactory(path=tmp_path / NAME)
    assert written.data.splitlines()[-1] == b"14.4042,164.6827,123.1005,55.9865,108.6963"
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_cluster_analyse_csv", 4)
    # ms to ns; the rank the file name's last number; the mean without a step number
    assert warehouse_db.execute(ROWS).fetchall() == [
        (1, 3, "pipeline-parallel", 2, 4, 1, 13820200, 164476000, 121898900, 56397300, 108078700),
        (2, 3, "pipeline-parallel", 2, 4, 2, 14580600, 165836300, 124247500, 56169500, 109666900),
        (3, 3, "pipeline-parallel", 2, 4, 3, 14811900, 163735900, 123155100, 55392700, 108343200),
        (4, 3, "pipeline-parallel", 2, 4, None, 14404200, 164682700, 123100500, 55986500, 108696300)]
    assert warehouse_db.execute("SELECT rank_id FROM source").fetchone() == (3,)


def test_a_data_parallel_file_has_two_times(warehouse_db, tmp_path):
    written = ClusterAnalyseFactory(path=tmp_path / "ascend_cluster_analyse_data-parallel_1_8_5.csv",
                                    header=("computation_time", "communication_alone_time"),
                                    rows=[["1.5", "2.25"], ["2.5", "0.75"]])
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.rows) == ("ok", 3)
    assert warehouse_db.execute("SELECT step_id, computation_ns, communication_alone_ns, stage_ns FROM "
                                "mindspore_cluster_step ORDER BY source_row").fetchall() == [
        (1, 1500000, 2250000, None), (2, 2500000, 750000, None), (None, 2000000, 1500000, None)]


def test_the_older_data_parallel_file_gives_a_step_s_phases(warehouse_db, tmp_path):
    """MindInsight's run_2 ascend_cluster_analyse_data-parallel_1_1_1.csv (the factory writes it whole): one step's
    phases in counter cycles, no mean. tests/st/func/profiler/test_cluster_analyser.py expects, for rank 1 and
    step 1, step_trace_info [0.0, 23.6681, 0.041, 23.7091] (ms to 4 decimals; the step trace's same phases)."""
    written = ClusterAnalyseFactory(path=tmp_path / "ascend_cluster_analyse_data-parallel_1_1_1.csv", phases=True)
    assert written.data == b"iteration_interval, fp_and_bp, tail\n0, 2366808, 4097\n"
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_cluster_analyse_csv", 1)
    row = warehouse_db.execute("SELECT rank_id, parallel_mode, stage_num, rank_size, step_id, computation_ns, "
                               "iteration_interval_ns, fp_and_bp_ns, tail_ns FROM mindspore_cluster_step").fetchone()
    assert row == (1, "data-parallel", 1, 1, 1, None, 0, 23_668_080, 40_970)
    phases = [round(ns / 1e6, 4) for ns in row[6:]]
    assert phases + [round(sum(phases), 4)] == [0.0, 23.6681, 0.041, 23.7091]


@pytest.mark.parametrize(("name", "keep", "tail"), [
    ("ascend_cluster_analyse_pipeline-parallel_1_2_1.csv", 5, b""),
    ("ascend_cluster_analyse_model-parallel_1_2_1.csv", 2, b"\n"),
], ids=["run_4-pipeline", "run_3-model"])
def test_the_older_model_and_pipeline_files_give_one_step(warehouse_db, tmp_path, name, keep, tail):
    """MindInsight's run_4 and run_3 files (the factory writes them whole; run_3's has the first two columns and
    a blank last line): tests/st/func/profiler/test_cluster_analyser.py expects, for rank 1 and step 1,
    step_bottleneck_info [0.0, 651.9051, 1293.1231, 1577.1234, 368.7766, 227.1234] in the pipeline-parallel run
    and [0.0, 651.9051, 1293.1231] in the model-parallel one (the first the step trace's iteration interval),
    stage_num 1."""
    older = ClusterAnalyseFactory.build(older=True)
    written = ClusterAnalyseFactory(path=tmp_path / name, older=True, header=older.header[:keep],
                                    rows=[row[:keep] for row in older.rows])
    written.path.write_bytes(written.data + tail)
    if keep == 2:
        assert written.path.read_bytes() == b"computation,communication_alone_time\n651.9051,1293.1231\n\n"
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_cluster_analyse_csv", 1)
    row = warehouse_db.execute(ROWS).fetchone()
    assert row[1:6] == (1, name.split("_")[3], 1, 2, 1)
    assert [None if ns is None else ns / 1e6 for ns in row[6:]] == (
        [651.9051, 1293.1231, 1577.1234, 368.7766, 227.1234][:keep] + [None] * (5 - keep))

@pytest.mark.parametrize(("phases", "change", "reason"), [
    (False, lambda data: data.replace(b"14.5806", b"fast"), "line 3: "),
    (False, lambda data: data.replace(b"14.5806,165.8363,", b""), "line 3: 3 fields for a header of 5"),
    (True, lambda data: data.replace(b"2366808", b"2366808.5.1"), "line 2: not a number"),
    (True, lambda data: data.replace(b"0, 2366808", b"2366808"), "line 2: 2 fields for a header of 3"),
    ("older", lambda data: data.replace(b"1577.1234", b"1577.1234.5"), "line 2: not a number"),
    ("older", lambda data: data.replace(b",227.1234", b""), "line 2: 4 fields for a header of 5"),
])
def test_a_hostile_file_fails_naming_the_line(warehouse_db, tmp_path, phases, change, reason):
    written = ClusterAnalyseFactory(path=tmp_path / NAME, **({"older": True} if phases == "older" else
                                                             {"phases": phases}))
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, "mindspore_cluster_step")


def test_the_real_files_give_mindinsight_s_communication_rates(warehouse_db, realdata):
    """cluster_propose's four ranks (2 stages): MindInsight's parallel analyser, on the files' last records,
    gives a between-stage communication rate of 0.2582 (the ranks' receive time over their computation and
    communication) and, within stage 1 (ranks 0 and 1), 0.6029851045963494 (collective communication over
    the same), tests/st/func/profiler/test_parallel_proposer.py."""
    folder = realdata / "mindinsight" / "cluster_propose"
    results = ingest_paths(warehouse_db, sorted(folder.glob("ascend_cluster_analyse_*.csv")))
    assert [(r.status, r.rows) for r in results] == [("ok", 6)] * 4
    means = "FROM mindspore_cluster_step WHERE step_id IS NULL"
    between = warehouse_db.execute(
        f"SELECT sum(receive_alone_ns) * 1.0 / sum(computation_ns + communication_alone_ns) {means}").fetchone()[0]
    within = warehouse_db.execute(
        f"SELECT sum(collective_communication_alone_ns) * 1.0 / sum(computation_ns + communication_alone_ns) {means} "
        "AND rank_id < rank_size / stage_num").fetchone()[0]
    assert round(between, 4) == 0.2582
    assert within == pytest.approx(0.6029851045963494, abs=1e-12)
    assert warehouse_db.execute(
        "SELECT count(DISTINCT rank_id), count(step_id), max(step_id) FROM mindspore_cluster_step").fetchone() == (4, 20, 5)
