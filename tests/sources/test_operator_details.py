"""operator_details.csv into ``operator_details`` (multi-line call stacks)."""

from __future__ import annotations

from tests.factories.text_exports import OperatorDetailsFactory
from warehouse.ingest import ingest_file


def test_values_units_and_record_numbers(warehouse_db, tmp_path):
    path = tmp_path / "operator_details.csv"
    OperatorDetailsFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "operator_details_csv", 2)
    rows = warehouse_db.execute(
        "SELECT source_row, rank_id, name, input_shapes, call_stack, host_self_ns, host_total_ns, device_self_ns, "
        "device_total_ns, device_self_aicore_ns, device_total_aicore_ns FROM operator_details ORDER BY source_row"
    ).fetchall()
    # the first record spans two lines: the second record is still number 2
    assert rows == [
        (1, -1, "aten::add", None, "/a/b.py(345): train;\n/a/c.py(12): step", 12500, 20250, 3001, 3001, 0, 500),
        (2, -1, "aten::mm", "[[32, 2048], [2048, 1000]]", None, 8000, 9000, 1000, 1000, 1000, 1000),
    ]


def test_a_call_stack_longer_than_the_csv_module_default(warehouse_db, tmp_path):
    path = tmp_path / "operator_details.csv"
    stack = ";\n".join(f"/site-packages/torch/module_{n}.py({n}): forward" for n in range(5000))
    assert len(stack) > 131072
    OperatorDetailsFactory(path=path, rows=[{"Name": "aten::deep", "Call Stack": stack}])
    assert ingest_file(warehouse_db, path).rows == 1
    assert warehouse_db.execute("SELECT length(call_stack) FROM operator_details").fetchone() == (len(stack),)
