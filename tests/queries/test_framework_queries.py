"""The framework queries (queries/framework/*.sql) on pytorch_api and callchain rows."""

from __future__ import annotations

from factories.warehouse_rows import CallchainFactory, PytorchApiFactory, SourceFactory


def test_framework_op_summary(run, rows):
    for rank, name, dur in ((0, "aten::add", 10), (0, "aten::add", 30), (0, "aten::mm", 100), (1, "aten::add", 5)):
        PytorchApiFactory(rank_id=rank, name=name, dur=dur)
    PytorchApiFactory(rank_id=0, name="Enqueue", dur=1000, type="queue")
    result = run("framework_op_summary")
    assert [(r["rank_id"], r["name"], r["count"], r["total_ns"], r["avg_ns"], r["max_ns"]) for r in result] == [
        (0, "aten::mm", 1, 100, 100, 100),
        (0, "aten::add", 2, 40, 20, 30),
        (1, "aten::add", 1, 5, 5, 5),
    ]
    assert [(r["name"], r["total_ns"]) for r in run("framework_op_summary", rank_id=0, type="queue")] == [
        ("Enqueue", 1000)]


def test_slow_framework_ops_carry_their_call_stacks(run, rows):
    source = SourceFactory()
    PytorchApiFactory(source_id=source["id"], name="aten::mm", dur=500, callchain_id=7, input_shapes="[[2,3],[3,4]]")
    PytorchApiFactory(source_id=source["id"], name="aten::add", dur=50, callchain_id=8)
    PytorchApiFactory(source_id=source["id"], name="aten::relu", dur=300)
    # written out of order: the stack is ordered by depth, innermost first
    CallchainFactory(source_id=source["id"], callchain_id=7, depth=1, frame="train.py(20): step")
    CallchainFactory(source_id=source["id"], callchain_id=7, depth=0, frame="model.py(5): forward")
    CallchainFactory(source_id=source["id"], callchain_id=8, depth=0, frame="model.py(9): forward")
    # the same callchain id in another input is another stack
    CallchainFactory(callchain_id=7, depth=0, frame="other.py(1): elsewhere")
    result = run("slow_framework_ops", limit=2)
    assert [(r["name"], r["dur"], r["call_stack"]) for r in result] == [
        ("aten::mm", 500, "model.py(5): forward\ntrain.py(20): step"),
        ("aten::relu", 300, None),
    ]
    assert result[0]["input_shapes"] == "[[2,3],[3,4]]"
