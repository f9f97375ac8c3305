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
