"""The older MindSpore profiler's compute time tables: output_op_compute_time_{device}.txt into
``mindspore_aicore_op`` and output_op_compute_time_detail_{device}.txt into ``op_statistic`` and
``mindspore_aicore_op``, answering only where the AI Core CSVs are not (facts aicore_op, aicore_type), reconciled
with them otherwise (audits mindspore_aicore_ops_agree, mindspore_aicore_types_agree).

The factories write MindInsight's run_2 operators (tests/utils/resource/run_2/normal_run/profiler): their means
as output_op_compute_time_1.txt gives them, which is also what its aicore_intermediate_1_detail.csv and the
detail file give (AssignAdd-op142 at 0.00219 ms, the three AssignAdd operators 0.00492 ms, the type CSV's line 2).
"""

from __future__ import annotations

import json

import pytest

from tests.factories.mindspore import (
    AicoreDetailFactory,
    AicoreTypeFactory,
    OpComputeDetailFactory,
    OpComputeTimeFactory,
)
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse import queries
from warehouse.ingest import ingest_file, ingest_paths

OPERATORS = "SELECT source_row, rank_id, full_name, op_name, op_type, subgraph, time_ns, count, stream_id " \
            "FROM mindspore_aicore_op ORDER BY source_row"


def test_the_compute_time_table_gives_each_operator_s_mean_and_stream(warehouse_db, tmp_path):
    written = OpComputeTimeFactory(path=tmp_path / "output_op_compute_time_1.txt")
    assert written.data.splitlines()[3] == b"Default/AssignAdd-op142 0.00219  519"
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_op_compute_time_txt", 5)
    rows = warehouse_db.execute(OPERATORS).fetchall()
    assert rows[0] == (1, 1, "Default/AssignAdd-op142", None, None, None, 2190, None, 519)
    assert [row[6] for row in rows] == [2190, 1250, 1480, 9_174_080, 4_243_360]
    # the total line: the sum of the means as Python adds the floats
    detail = json.loads(warehouse_db.execute("SELECT detail FROM source").fetchone()[0])
    assert detail["total_ms"] == "13.422360000000001"


def test_the_detail_file_keeps_its_last_analysis_of_types_and_operators(warehouse_db, tmp_path):
    """run_1's layout: tabulate's tables, no full name, the analysis appended three times."""
    written = OpComputeDetailFactory(path=tmp_path / "output_op_compute_time_detail_1.txt")
    assert written.data.count(b"op compute time") == 3
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_op_compute_detail_txt", 7)
    assert json.loads(warehouse_db.execute("SELECT detail FROM source").fetchone()[0])["analyses"] == 3
    # the types, one step's (per_step), from the third analysis (its title on line 29, its types on 32 and 33)
    assert warehouse_db.execute("SELECT source_row, op_type, core_type, count, total_ns, ratio_pct, per_step "
                                "FROM op_statistic ORDER BY source_row").fetchall() == [
        (32, "MatMul", "AI_CORE", 2, 13_417_400, 99.96, 1), (33, "AssignAdd", "AI_CORE", 3, 4920, 0.04, 1)]
    # tabulate's six digits: 13.41744 ms printed 13.4174; the operators by name, type and subgraph
    assert warehouse_db.execute(OPERATORS).fetchall()[:2] == [
        (38, 1, None, "MatMul-op19", "MatMul", "Default", 9_174_080, None, None),
        (39, 1, None, "MatMul-op56", "MatMul", "Gradients", 4_243_360, None, None)]


def test_the_plain_detail_layout_names_each_operator_in_full(warehouse_db, tmp_path):
    """run_2's layout: one space between fields, full_op_name last, one analysis."""
    written = OpComputeDetailFactory(path=tmp_path / "output_op_compute_time_detail_1.txt", layout="plain", analyses=1)
    assert written.data.splitlines()[1:3] == [
        b"optype_name compute_time(ms, per-step) called_times(per-step) percent", b"MatMul 13.41744 2 99.96"]
    assert ingest_file(warehouse_db, written.path).status == "ok"
    assert warehouse_db.execute("SELECT total_ns FROM op_statistic WHERE op_type = 'MatMul'").fetchone() == (13_417_440,)
    assert warehouse_db.execute("SELECT full_name, op_name FROM mindspore_aicore_op WHERE op_name = 'AssignAdd-op31'"
                                ).fetchone() == ("Default/network-TrainOneStepCell/optimizer-Momentum/AssignAdd-op31",
                                                 "AssignAdd-op31")


def _run_2(folder, detail_csv=True, type_csv=True):
    """run_2's five tables of OLDER_OPERATORS in one profiler folder (device 1)."""
    folder.mkdir(parents=True, exist_ok=True)
    OpComputeTimeFactory(path=folder / "output_op_compute_time_1.txt")
    OpComputeDetailFactory(path=folder / "output_op_compute_time_detail_1.txt", layout="plain", analyses=1)
    if detail_csv:
        AicoreDetailFactory(path=folder / "aicore_intermediate_1_detail.csv", older=True)
    if type_csv:
        AicoreTypeFactory(path=folder / "aicore_intermediate_1_type.csv", older=True)
    return folder


def _query(conn, name) -> list[dict]:
    columns, result = queries.get(name).run(conn, {})
    return [dict(zip(columns, row)) for row in result]


def test_the_csvs_answer_and_the_compute_time_tables_agree_with_them(warehouse_db, tmp_path):
    folder = _run_2(tmp_path / "run_2" / "profiler")
    assert {r.status for r in ingest_paths(warehouse_db, [folder])} == {"ok"}
    # one table of each: the CSVs'
    assert {row["source_kind"] for row in _query(warehouse_db, "op_type_statistic")} == {"mindspore_aicore_type_csv"}
    assert len(_query(warehouse_db, "mindspore_aicore_ops")) == 5
    assert audit_examples(warehouse_db, "mindspore_aicore_ops_agree") == []
    assert audit_examples(warehouse_db, "mindspore_aicore_types_agree") == []


def test_a_compute_time_table_alone_answers(warehouse_db, tmp_path):
    folder = _run_2(tmp_path / "run_2" / "profiler", detail_csv=False, type_csv=False)
    assert {r.status for r in ingest_paths(warehouse_db, [folder])} == {"ok"}
    # output_op_compute_time before the detail file's operators; its types answer
    ops = _query(warehouse_db, "mindspore_aicore_ops")
    assert [(row["kernel_name"], row["count"], row["avg_ns"]) for row in ops[:1]] == [("AssignAdd-op142", None, 2190)]
    assert len(ops) == 5
    types = _query(warehouse_db, "op_type_statistic")
    assert [(row["op_type"], row["count"], row["total_ns"], row["per_step"], row["source_kind"]) for row in types] == [
        ("MatMul", 2, 13_417_440, 1, "mindspore_op_compute_detail_txt"),
        ("AssignAdd", 3, 4920, 1, "mindspore_op_compute_detail_txt")]


def test_the_audits_name_a_table_that_disagrees(warehouse_db, tmp_path):
    folder = _run_2(tmp_path / "run_2" / "profiler")
    table = folder / "output_op_compute_time_1.txt"
    table.write_bytes(table.read_bytes().replace(b"MatMul-op19 9.17408", b"MatMul-op19 8.17408"))
    detail = folder / "output_op_compute_time_detail_1.txt"
    detail.write_bytes(detail.read_bytes().replace(b"AssignAdd 0.00492 3", b"AssignAdd 0.00492 4"))
    assert {r.status for r in ingest_paths(warehouse_db, [folder])} == {"ok"}
    [(run_id, rank, name, answer_ns, other_ns, pct, answer_id, other_id)] = audit_examples(
        warehouse_db, "mindspore_aicore_ops_agree")
    assert (rank, name.rsplit("/", 1)[-1], answer_ns, other_ns) == (1, "MatMul-op19", 9_174_080, 8_174_080)
    assert pct == pytest.approx(100 * 1_000_000 / 9_174_080)
    assert [row[2:5] for row in audit_examples(warehouse_db, "mindspore_aicore_types_agree")] == [("AssignAdd", 3, 4)]


def test_a_type_csv_of_every_run_is_not_compared_with_one_step(warehouse_db, tmp_path):
    """run_1 keeps today's type CSV (every run's kernels) beside a detail file of one step: nothing to compare."""
    folder = _run_2(tmp_path / "run_1" / "profiler", type_csv=False)
    AicoreTypeFactory(path=folder / "aicore_intermediate_1_type.csv")
    assert {r.status for r in ingest_paths(warehouse_db, [folder])} == {"ok"}
    assert audit_examples(warehouse_db, "mindspore_aicore_types_agree") == []


@pytest.mark.parametrize(("factory", "name", "change", "reason", "table"), (
    (OpComputeTimeFactory, "output_op_compute_time_0.txt", lambda data: data.replace(b"0.00219  519", b"0.00219"),
     "line 4: 2 fields for a header of 3", "mindspore_aicore_op"),
    (OpComputeTimeFactory, "output_op_compute_time_0.txt", lambda data: data.replace(b"compute_time(ms)", b"time"),
     "line 2: expected 'op_name compute_time(ms) stream_id', found 'op_name time stream_id'", "mindspore_aicore_op"),
    (OpComputeTimeFactory, "output_op_compute_time_0.txt", lambda data: data.replace(b"9.17408", b"9,17408"),
     "line 7: not a number: '9,17408'", "mindspore_aicore_op"),
    (OpComputeTimeFactory, "output_op_compute_time_0.txt", lambda data: data + b"Default/X-op1 1.0  519\n",
     "line 10: a line after the total line", "mindspore_aicore_op"),
    (OpComputeDetailFactory, "output_op_compute_time_detail_0.txt",
     lambda data: data.replace(b"0.00492                         3", b"0.00492                         x", 1),
     "line 5: not a number: 'x'", "op_statistic"),
    (OpComputeDetailFactory, "output_op_compute_time_detail_0.txt",
     lambda data: data.replace(b"Detail:\n", b"Detail:\nop_name\n", 1),
     "line 8: expected the operators header, found 'op_name'", "mindspore_aicore_op"),
    (OpComputeDetailFactory, "output_op_compute_time_detail_0.txt", lambda data: data.replace(b"  Default", b"", 1),
     "line 10: 3 fields for a header of 4", "mindspore_aicore_op"),
    (OpComputeDetailFactory, "output_op_compute_time_detail_0.txt",
     lambda data: data.replace(b"optype_name", b"MatMul 1 2 3\noptype_name", 1),
     "line 2: expected the types header, found 'MatMul 1 2 3'", "op_statistic"),
))
def test_a_hostile_table_fails_naming_the_line(warehouse_db, tmp_path, factory, name, change, reason, table):
    written = factory(path=tmp_path / name)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, table)
