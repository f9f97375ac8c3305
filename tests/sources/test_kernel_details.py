"""kernel_details.csv (8, 32 and 46 columns) into ``kernel``: values, units, row numbers, classes."""

from __future__ import annotations

import json

from tests.factories.text_exports import (
    KERNEL_HEADER_8,
    KERNEL_HEADER_32,
    KernelDetailsFactory,
    KernelRowFactory,
)
from warehouse.ingest import ingest_file
from warehouse.sources import kernel_details


def kernels(conn, columns):
    return conn.execute(f"SELECT {columns} FROM kernel ORDER BY source_row").fetchall()


def test_46_columns_values_units_and_row_numbers(warehouse_db, tmp_path):
    path = tmp_path / "rank3_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv"
    KernelDetailsFactory(path=path, rows=[
        KernelRowFactory(name="MatMulV2_0", start="1736408883704643.212", duration="53.741", wait="0.5",
                         input_shapes="32,3,224,224;64", context_id=None, task_id="11051"),
        KernelRowFactory(name="trans_TransData_1", type="TransData", core="AI_VECTOR_CORE",
                         start="1736408883704801.156", aic_mac="0.0", aic_mte2="0.0", aiv_vec="1.174",
                         aiv_mte2="2.675", aiv_mte3="0.68", aiv_scalar="0.388", aiv="5.227"),
    ])
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "kernel_details_csv", 2)
    assert kernels(warehouse_db, "source_row, origin, rank_id, name, ts, dur, wait_ns, input_shapes, context_id") == [
        (1, "kernel_details_csv", 3, "MatMulV2_0", 1736408883704643212, 53741, 500, "32,3,224,224;64", None),
        (2, "kernel_details_csv", 3, "trans_TransData_1", 1736408883704801156, 53741, 0, "32,2048;2048,1000", None),
    ]
    assert kernels(warehouse_db, "aic_mac_ns, aic_mac_ratio, aic_mte2_ns, aic_fixpipe_ns, aiv_ns, aiv_vec_ns, "
                                 "aiv_mte3_ns, cube_utilization_pct, model_id, task_id, op_state, metrics")[0] == (
        9406, 0.186, 27875, 2250, 0, 0, 0, 61.5, 4294967295, 11051, "dynamic", None)
    assert kernels(warehouse_db, "aiv_ns, aiv_vec_ns, aiv_mte2_ns, aiv_mte3_ns, aiv_scalar_ns")[1] == (
        5227, 1174, 2675, 680, 388)


def test_rows_are_classified_at_ingest(warehouse_db, tmp_path):
    path = tmp_path / "kernel_details.csv"
    KernelDetailsFactory(path=path, rows=[
        KernelRowFactory(name="MatMulV2", core="AI_CORE"),
        KernelRowFactory(name="trans_TransData_1", type="TransData", core="AI_VECTOR_CORE", aic_mac="0",
                         aic_mte2="0", aic_scalar="0", aic_mte1="0", aic_fixpipe="0", aiv_vec="1.174",
                         aiv_mte2="2.675", aiv_mte3="0.68", aiv_scalar="0.388"),
        KernelRowFactory(name="hcom_allReduce__586_0_1", type="hcom_allReduce_", core="HCCL", **{
            key: None for key in ("aic_mac", "aic_mte2", "aic_scalar", "aic_mte1", "aic_fixpipe", "aiv_vec",
                                  "aiv_mte2", "aiv_mte3", "aiv_scalar", "aiv")}),
    ])
    ingest_file(warehouse_db, path)
    assert kernels(warehouse_db, "op_class, category, cube_ns, aic_mte_ns, aiv_mte_ns, dominant_core, "
                                 "bound_stage, bound_family") == [
        ("aic", "compute.matmul", 11656, 29375, 0, "aic", "aic_mte2", "aic_mte"),
        ("aiv", "data.layout", 0, 0, 3355, "aiv", "aiv_mte2", "aiv_mte"),
        ("communication", "communication.collective", None, None, None, None, None, None),
    ]


def test_8_column_variant(warehouse_db, tmp_path):
    path = tmp_path / "kernel_details.csv"
    KernelDetailsFactory(path=path, header=KERNEL_HEADER_8, rows=[
        KernelRowFactory(name="Conv2D1", type=None, core=None, start="1736405443881672.085", duration="315.746",
                         wait="99.142", block_dim="0"),
        KernelRowFactory(name="hcom_allReduce__868_0_1", type=None, core="HCCL", start="1736405443909176.934",
                         duration="72994.438", wait="0.0"),
    ])
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.rows) == ("ok", 2)
    assert kernels(warehouse_db, "name, op_type, accelerator_core, ts, dur, wait_ns, aic_mac_ns, op_class") == [
        # no core named: the export does not say what ran it ('other': neither compute nor unclassified)
        ("Conv2D1", None, None, 1736405443881672085, 315746, 99142, None, "other"),
        ("hcom_allReduce__868_0_1", None, "HCCL", 1736405443909176934, 72994438, 0, None, "communication"),
    ]


def test_32_column_variant_keeps_other_metrics_as_json(warehouse_db, tmp_path):
    path = tmp_path / "kernel_details.csv"
    row = KernelRowFactory(name="FlashAttentionScore", type="FlashAttentionScore", core="MIX_AIC")
    row.update({"aic_l0a_read_bw(GB/s)": "19.2124", "aic_l0b_write_bw(GB/s)": "0", "aiv_l0c_read_bw(GB/s)": None})
    KernelDetailsFactory(path=path, header=KERNEL_HEADER_32, rows=[row])
    ingest_file(warehouse_db, path)
    name, metrics, aicore, op_class, category = warehouse_db.execute(
        "SELECT name, metrics, aicore_ns, op_class, category FROM kernel").fetchone()
    # the columns the row leaves out are written N/A and are left out of the object too
    assert json.loads(metrics) == {"aic_l0a_read_bw(GB/s)": 19.2124, "aic_l0b_write_bw(GB/s)": 0}
    assert (name, aicore, op_class, category) == ("FlashAttentionScore", 50522, "mix_cv", "attention.flash_score")


def test_short_record_is_kept_and_noted(warehouse_db, tmp_path):
    path = tmp_path / "kernel_details.csv"
    written = KernelDetailsFactory(path=path, rows=[KernelRowFactory(), KernelRowFactory()])
    lines = written.data.split(b"\r\n")
    # drop the Mix Block Dim field of the second record, as a real export does
    fields = lines[2].split(b",")
    lines[2] = b",".join(fields[:12] + fields[13:])
    path.write_bytes(b"\r\n".join(lines))
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.rows) == ("ok", 2)
    detail = json.loads(warehouse_db.execute("SELECT detail FROM source").fetchone()[0])
    assert detail["short_records"]["lines"] == [3]
    # "NO" landed in Mix Block Dim: it does not convert, so it and every later (shifted) field
    # are NULL; the fields before the gap are kept, and the raw fields are in metrics
    assert kernels(warehouse_db, "name IS NOT NULL, block_dim, mix_block_dim, hf32_eligible, aicore_ns") == [
        (1, 24, 0, "NO", 50522), (1, 24, None, None, None)]
    raw = json.loads(kernels(warehouse_db, "metrics")[1][0])["_short_record"]
    assert len(raw) == 45 and raw[12] == "NO"


def test_bad_number_names_line_and_column(warehouse_db, tmp_path):
    path = tmp_path / "kernel_details.csv"
    KernelDetailsFactory(path=path, rows=[KernelRowFactory(), KernelRowFactory(duration="fast")])
    result = ingest_file(warehouse_db, path)
    assert result.status == "failed"
    assert result.error == f"{path}: line 3: column 'Duration(us)': not a number: 'fast'"
    assert warehouse_db.execute("SELECT count(*) FROM kernel").fetchone() == (0,)


def test_detect_by_header_not_name(tmp_path):
    renamed = tmp_path / "whatever.txt"
    KernelDetailsFactory(path=renamed)
    assert kernel_details.detect(renamed)
    other = tmp_path / "kernel_details.csv"
    other.write_text("Name,Duration(us)\r\nx,1\r\n")
    assert not kernel_details.detect(other)
    trace = tmp_path / "trace_view.json"
    trace.write_text('[{"ph": "X", "name": "a,b", "ts": "1", "dur": 2}]')
    assert not kernel_details.detect(trace)
