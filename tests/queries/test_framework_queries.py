"""The framework queries (queries/framework/*.sql) on pytorch_api and callchain rows."""

from __future__ import annotations

from factories.warehouse_rows import CallchainFactory, PytorchApiFactory, SourceFactory, rank_source, run_id


def test_framework_op_summary(run, rows):
    for rank, name, dur in ((0, "aten::add", 10), (0, "aten::add", 30), (0, "aten::mm", 100), (1, "aten::add", 5)):
        PytorchApiFactory(rank_id=rank, name=name, dur=dur)
    PytorchApiFactory(rank_id=0, name="Enqueue", dur=1000, type="queue")
    this = run_id("run")
    result = run("framework_op_summary")
    assert [(r["run_id"], r["rank_id"], r["name"], r["count"], r["total_ns"], r["avg_ns"], r["max_ns"])
            for r in result] == [
        (this, 0, "aten::mm", 1, 100, 100, 100),
        (this, 0, "aten::add", 2, 40, 20, 30),
        (this, 1, "aten::add", 1, 5, 5, 5),
    ]
    assert [(r["name"], r["total_ns"]) for r in run("framework_op_summary", rank_id=0, type="queue")] == [
        ("Enqueue", 1000)]


def test_framework_op_summary_keeps_runs_apart(run, rows):
    PytorchApiFactory(rank_id=0, name="aten::add", dur=10)
    PytorchApiFactory(rank_id=0, source_id=rank_source(0, run="other"), name="aten::add", dur=70)
    this, other = run_id("run"), run_id("other")
    assert [(r["run_id"], r["rank_id"], r["count"], r["total_ns"]) for r in run("framework_op_summary")] == [
        (this, 0, 1, 10), (other, 0, 1, 70)]
    assert [r["total_ns"] for r in run("framework_op_summary", run_id=other, rank_id=0)] == [70]


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
    assert [(r["run_id"], r["name"], r["dur"], r["call_stack"]) for r in result] == [
        (source["run_id"], "aten::mm", 500, "model.py(5): forward\ntrain.py(20): step"),
        (source["run_id"], "aten::relu", 300, None),
    ]
    assert result[0]["input_shapes"] == "[[2,3],[3,4]]"


def test_slow_framework_ops_are_the_slowest_of_each_run(run, rows):
    for dur in (100, 300, 200):
        PytorchApiFactory(rank_id=0, name="aten::mm", dur=dur)
    other = rank_source(0, run="other")
    PytorchApiFactory(rank_id=0, source_id=other, name="aten::add", dur=50, callchain_id=7)
    PytorchApiFactory(rank_id=0, source_id=other, name="aten::add", dur=5)
    # the other run's callchain 7 is its own stack
    CallchainFactory(rank_id=0, source_id=other, callchain_id=7, depth=0, frame="other.py(1): add")
    this, other_run = run_id("run"), run_id("other")
    result = run("slow_framework_ops", limit=2, rank_id=0)
    assert [(r["run_id"], r["name"], r["dur"], r["call_stack"]) for r in result] == [
        (this, "aten::mm", 300, None), (this, "aten::mm", 200, None),
        (other_run, "aten::add", 50, "other.py(1): add"), (other_run, "aten::add", 5, None)]
    assert [r["dur"] for r in run("slow_framework_ops", run_id=this)] == [300, 200, 100]
