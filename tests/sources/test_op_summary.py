"""op_summary_*.csv (msprof) into ``kernel`` with origin op_summary_csv."""

from __future__ import annotations

from tests.factories.text_exports import OpSummaryFactory
from warehouse.ingest import ingest_file
from warehouse.sources import kernel_details, op_summary


def test_values_units_and_class(warehouse_db, tmp_path):
    path = tmp_path / "test_rank_1" / "op_summary_1.csv"
    written = OpSummaryFactory(path=path)
    written.rows.append({**written.rows[0], "Op Name": "hcom_broadcast__483_0", "OP Type": "hcom_broadcast_",
                         "Task Type": "HCCL", "Start Time(us)": "1695115378715400.2", "Task Duration(us)": "4975.2664",
                         "Task Wait Time(us)": "1242.3992", "aiv_time(us)": None})
    OpSummaryFactory(path=path, rows=written.rows)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "op_summary_csv", 2)
    assert warehouse_db.execute(
        "SELECT source_row, origin, rank_id, name, op_type, task_type, accelerator_core, ts, dur, wait_ns, "
        "aicore_ns, aiv_ns, input_shapes, op_class, category FROM kernel ORDER BY source_row"
    ).fetchall() == [
        (1, "op_summary_csv", 1, "ZerosLike", "ZerosLike", "AI_CORE", None, 1695115378713661000, 496851, 0,
         982720, 491360, "232138240", "aic", "data.fill"),
        (2, "op_summary_csv", 1, "hcom_broadcast__483_0", "hcom_broadcast_", "HCCL", None, 1695115378715400200,
         4975266, 1242399, 982720, None, "232138240", "communication", "communication.collective"),
    ]


def test_detection_tells_the_two_kernel_exports_apart(tmp_path):
    path = tmp_path / "op_summary_0.csv"
    OpSummaryFactory(path=path)
    assert op_summary.detect(path)
    assert not kernel_details.detect(path)
