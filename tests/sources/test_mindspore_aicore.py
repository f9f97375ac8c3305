"""MindSpore's aicore_intermediate_{device}_type.csv into ``op_statistic``, _detail.csv into ``mindspore_aicore_op``."""

from __future__ import annotations

from tests.factories.mindspore import AicoreDetailFactory, AicoreTypeFactory
from warehouse.ingest import ingest_file


def test_the_type_table_is_the_device_s_op_statistic_in_ns(warehouse_db, tmp_path):
    path = tmp_path / "profiler" / "aicore_intermediate_4_type.csv"
    AicoreTypeFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_aicore_type_csv", 2)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, op_type, core_type, count, total_ns, min_ns, ratio_pct FROM op_statistic "
        "ORDER BY source_row").fetchall() == [
        (1, 4, "AtomicAddrClean", "AI_CORE", 6, 7283, None, 0.49), (2, 4, "MatMul", "AI_CORE", 9, 1085000, None, 73.8)]
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source").fetchone() == (4, 4)


def test_the_detail_table_keeps_each_operator_s_scope(warehouse_db, tmp_path):
    path = tmp_path / "aicore_intermediate_0_detail.csv"
    AicoreDetailFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind) == ("ok", "mindspore_aicore_detail_csv")
    assert warehouse_db.execute("SELECT rank_id, full_name, time_ns, count FROM mindspore_aicore_op").fetchall() == [
        (0, "Default/Cast-op10", 4660, 1),
        (0, "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op9", 370864, 1)]


def test_a_time_that_is_no_number_fails_naming_line_and_column(warehouse_db, tmp_path):
    written = AicoreTypeFactory(path=tmp_path / "aicore_intermediate_0_type.csv")
    written.path.write_bytes(written.data.replace(b"1.085", b"1.0.85"))
    result = ingest_file(warehouse_db, written.path)
    assert result.status == "failed"
    assert result.error == f"{written.path}: line 3: column 'total_time': not a number: '1.0.85'"


def test_real_files_give_the_ai_core_tables(warehouse_db, realdata):
    """Figures from the files' own rows (MindInsight's tests/utils/resource/profiler, device 1); MindInsight's
    tests/ut/profiler/analyser/test_analyser_aicore_type.py expects the same 5 types, with the file's figures."""
    folder = realdata / "mindinsight" / "profiler"
    for name in ("aicore_intermediate_1_type.csv", "aicore_intermediate_1_detail.csv"):
        assert ingest_file(warehouse_db, folder / name).status == "ok"
    # 5 operator types; MatMul: 1.085 ms over 9 runs, 73.80 % of the AI Core time
    assert warehouse_db.execute("SELECT count(*), sum(count) FROM op_statistic WHERE rank_id = 1").fetchone() == (5, 35)
    assert warehouse_db.execute("SELECT count, total_ns, ratio_pct FROM op_statistic WHERE op_type = 'MatMul'"
                                ).fetchone() == (9, 1085000, 73.8)
    # 10 operators, the slowest fc3's MatMul-op9 (0.370864 ms)
    assert warehouse_db.execute("SELECT count(*), max(time_ns) FROM mindspore_aicore_op").fetchone() == (10, 370864)


def test_run_1_s_detail_header_gives_mindinsight_s_assign_add_operators(warehouse_db, tmp_path):
    """MindInsight's run_1 names the full name full_kernel_name; tests/st/func/profiler/test_op_analyser.py
    (test_query_aicore_detail_1) expects its AssignAdd operators at 1.79 and 1.283 us, 3 runs each."""
    written = AicoreDetailFactory(path=tmp_path / "aicore_intermediate_1_detail.csv", kernel_name=True)
    assert written.data.startswith(b"full_kernel_name,execution_time,execution_frequency\r\n")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_aicore_detail_csv", 2)
    rows = warehouse_db.execute("SELECT full_name, time_ns, count FROM mindspore_aicore_op ORDER BY source_row").fetchall()
    assert rows == [("Default/AssignAdd-op203", 1790, 3), ("Default/AssignAdd-op206", 1283, 3)]


def test_run_2_s_detail_copy_of_the_compute_times_has_no_count(warehouse_db, tmp_path):
    """run_2's oldest version, full_op_name,execution_time: MindInsight's integrator copied
    output_op_compute_time's means (AssignAdd-op142 at 0.00219 ms, its line 2)."""
    written = AicoreDetailFactory(path=tmp_path / "aicore_intermediate_1_detail.csv", older=True)
    assert written.data.splitlines()[:2] == [b"full_op_name,execution_time", b"Default/AssignAdd-op142,0.00219"]
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.rows) == ("ok", 5)
    assert warehouse_db.execute("SELECT full_name, time_ns, count FROM mindspore_aicore_op WHERE source_row = 1"
                                ).fetchone() == ("Default/AssignAdd-op142", 2190, None)
    assert warehouse_db.execute("SELECT sum(time_ns) FROM mindspore_aicore_op").fetchone() == (13_422_360,)


def test_run_2_s_type_header_sums_one_step_of_each_operator(warehouse_db, tmp_path):
    """run_2's older type CSV (op_type,execution_time,...): per type the number of its operators and the sum of
    their means; its AssignAdd row, 0.00492 ms over 3 operators, is the real file's line 2."""
    written = AicoreTypeFactory(path=tmp_path / "aicore_intermediate_1_type.csv", older=True)
    assert written.data.splitlines()[:2] == [b"op_type,execution_time,execution_frequency,percent",
                                             b"AssignAdd,0.00492,3,0.04"]
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind) == ("ok", "mindspore_aicore_type_csv")
    assert warehouse_db.execute("SELECT op_type, core_type, count, total_ns, ratio_pct, per_step FROM op_statistic "
                                "ORDER BY source_row").fetchall() == [
        ("AssignAdd", "AI_CORE", 3, 4920, 0.04, 1), ("MatMul", "AI_CORE", 2, 13_417_440, 99.96, 1)]
    # today's version sums every run: not one step's
    AicoreTypeFactory(path=tmp_path / "aicore_intermediate_2_type.csv")
    assert ingest_file(warehouse_db, tmp_path / "aicore_intermediate_2_type.csv").status == "ok"
    assert warehouse_db.execute("SELECT count(*) FROM op_statistic WHERE rank_id = 2 AND per_step IS NULL"
                                ).fetchone() == (2,)
