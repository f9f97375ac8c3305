"""dynamic_shape_info_{device}.json (each operator and kernel run of a dynamic-shape graph, per step) into
``mindspore_dynamic_shape_op``."""

from __future__ import annotations

import json

import pytest

from tests.factories.mindspore_summaries import ADD_KERNEL, DynamicShapeFactory
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file

NAME = "dynamic_shape_info_0.json"
RUNS = ("SELECT source_row, rank_id, record, step_id, op_side, op_type, op_name, op_full_name, block_dim, grid_dim, "
        "dur_ns, shapes FROM mindspore_dynamic_shape_op ORDER BY source_row")
#: MindInsight's GetNext per step (the mean of its runs; 0 where a step has none): its gpu_op_type_info
#: analyser's filter_type (tests/ut/profiler/analyser/test_dynamic_shape_analyser.py), in us
MINDINSIGHT_GET_NEXT = [153.52, 80.224, 50.752, 72.768, 59.936, 81.344, 67.232, 52.064, 0]
#: its gpu_cuda_type_info analyser's filter_type: the Add's kernel per step, us
MINDINSIGHT_ADD_KERNEL = [3.904, 3.232, 3.04, 3.04, 3.072, 3.072, 3.232, 3.04, 3.072]


def test_each_operator_and_kernel_run(warehouse_db, tmp_path):
    written = DynamicShapeFactory(path=tmp_path / NAME)
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_dynamic_shape_json", 8)
    rows = warehouse_db.execute(RUNS).fetchall()
    # us to ns; the shapes as a JSON list; the kernels after the operators
    assert rows[2] == (3, 0, "operator", 1, "gpu", "Add", "Add-op6", None, None, None, 75616, '["[32, 1]", "[32, 1]"]')
    assert rows[6] == (7, 0, "kernel", 1, None, "cuLaunchKernel", ADD_KERNEL, "Default/network-Net/Add-op6", "256,1,1",
                       "1,1,1", 3904, None)
    assert [row[3] for row in rows] == [1, 1, 1, 1, 2, 2, 1, 2]
    assert '"not_kept": ["operator_type", "kernel_type"]' in warehouse_db.execute("SELECT detail FROM source").fetchone()[0]


@pytest.mark.parametrize(("document", "reason"), [
    ({"operator": {"1": [{"step": "one", "dur": 1}]}}, "operator.1[0].step: expected a step number"),
    ({"operator": {"1": [{"step": 1, "dur": -1}]}}, "operator.1[0].dur: expected a duration in us"),
    ({"operator": {"1": [{"step": 1, "dur": 1, "op_type": 3}]}}, "operator.1[0]: expected text in"),
    ({"kernel": {"1": [7]}}, "kernel.1[0]: expected an object"),
    ({"operator": {"1": {"step": 1}}}, "operator: expected an object of lists per step"),
    ({"operator": {"1": [{"step": 1, "dur": 1, "shape_info": [1]}]}}, "operator.1[0].shape_info: expected a list"),
])
def test_a_hostile_file_fails_naming_the_place(warehouse_db, tmp_path, document, reason):
    written = DynamicShapeFactory(path=tmp_path / NAME)
    assert_fails_naming(warehouse_db, written.path, json.dumps(document, indent=2).encode(), reason,
                        "mindspore_dynamic_shape_op")


def test_the_real_file_gives_mindinsight_s_figures(warehouse_db, realdata):
    result = ingest_file(warehouse_db, realdata / "mindinsight" / "profiler" / NAME)
    assert (result.status, result.rows) == ("ok", 19 + 9)
    steps = range(1, 10)
    get_next = dict(warehouse_db.execute(
        "SELECT step_id, avg(dur_ns) FROM mindspore_dynamic_shape_op WHERE op_type = 'GetNext' GROUP BY step_id"))
    assert [round(get_next.get(step, 0) / 1000, 3) for step in steps] == MINDINSIGHT_GET_NEXT
    kernels = dict(warehouse_db.execute(
        "SELECT step_id, dur_ns FROM mindspore_dynamic_shape_op WHERE record = 'kernel' AND op_name = ?", (ADD_KERNEL,)))
    assert [kernels[step] / 1000 for step in steps] == MINDINSIGHT_ADD_KERNEL
    # step 1's Add: MindInsight's one row for the filter Add, step 1 (75.616 us, shapes [32, 1] twice)
    assert warehouse_db.execute(
        "SELECT dur_ns, shapes FROM mindspore_dynamic_shape_op WHERE op_type = 'Add' AND step_id = 1").fetchall() == [
        (75616, '["[32, 1]", "[32, 1]"]')]
