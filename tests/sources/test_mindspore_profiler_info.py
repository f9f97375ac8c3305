"""profiler_info_{rank}.json in MindSpore's older, flat layout into ``run_metadata``, its rank size and stages the run's
shape (parallel_size, run_shape, rank_place)."""

from __future__ import annotations

import pytest

from tests.factories.mindspore_summaries import ProfilerInfoFactory
from tests.factories.text_exports import ProfilerInfoFactory as TorchNpuProfilerInfoFactory
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file
from warehouse.sources import detect_source, profiler_info


def test_the_rank_s_place_in_its_run(warehouse_db, tmp_path):
    """MindInsight's parallel_strategy/profiler_info_0.json (the factory writes its 214 bytes): rank "0" of
    rank_size 2, auto_parallel, stage_num 1, graph mode (its profile API reads context_mode: graph, not
    pynative)."""
    written = ProfilerInfoFactory(path=tmp_path / "profiler_info_0.json")
    assert len(written.data) == 214 and written.data.startswith(b'{"context_mode": "graph", "rank_id": "0", ')
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_profiler_info_json", 8)
    metadata = dict(warehouse_db.execute("SELECT name, value FROM run_metadata WHERE rank_id = 0").fetchall())
    assert {name: metadata[name] for name in ("context_mode", "rank_size", "parallel_mode", "stage_num",
                                              "graph_ids")} == {
        "context_mode": "graph", "rank_size": "2", "parallel_mode": "auto_parallel", "stage_num": "1",
        "graph_ids": "[0]"}
    # the run is MindSpore's (this layout names no version), its shape the file's: two ranks, one stage
    assert warehouse_db.execute("SELECT profiler FROM run").fetchone() == ("MindSpore",)
    assert warehouse_db.execute(
        "SELECT source_id, rank_id, pp_size, world_size, said_by FROM parallel_size").fetchall() == [
        (result.source_id, 0, 1, 2, "mindspore_profiler_info")]
    assert warehouse_db.execute("SELECT shape_known, world_size, pp_size, said_by FROM run_shape").fetchone() == (
        1, 2, 1, "mindspore_profiler_info")
    assert warehouse_db.execute("SELECT rank_id, stage_id, peer_key FROM rank_place").fetchall() == [(0, 0, "stage 0")]


def test_the_rank_of_a_later_stage(warehouse_db, tmp_path):
    """Rank 5 of 8 in 2 stages: stage 1 (rank // (8 / 2), MindInsight's cluster analyser's rule, from 0 here)."""
    document = dict(ProfilerInfoFactory.build().rows[0], rank_id="5", rank_size=8, stage_num=2,
                    parallel_mode="semi_auto_parallel")
    written = ProfilerInfoFactory(path=tmp_path / "profiler_info_5.json", rows=[document])
    assert ingest_file(warehouse_db, written.path).status == "ok"
    assert warehouse_db.execute("SELECT rank_id, stage_id FROM rank_place").fetchall() == [(5, 1)]


def test_torch_npu_s_file_is_not_this_one(tmp_path):
    torch_npu = TorchNpuProfilerInfoFactory(path=tmp_path / "a" / "profiler_info_3.json").path
    mindspore = ProfilerInfoFactory(path=tmp_path / "b" / "profiler_info_0.json").path
    assert detect_source(torch_npu) is profiler_info
    assert detect_source(mindspore).KIND == "mindspore_profiler_info_json"


@pytest.mark.parametrize(("data", "reason"), [
    (b'{"context_mode": "graph", "rank_id": "zero", "rank_size": 2, "parallel_mode": "a", "stage_num": 1}',
     "rank_id: invalid literal"),
    (b'{"context_mode": "graph", "rank_id": ["0"], "rank_size": 2, "parallel_mode": "a", "stage_num": 1}',
     "rank_id: expected a rank number"),
    (b'{"context_mode": "graph", "rank_size": 2, "parallel_mode": "a", "stage_num": 1',
     "byte "),
], ids=["rank-not-a-number", "rank-a-list", "cut"])
def test_a_hostile_file_fails_naming_the_place(warehouse_db, tmp_path, data, reason):
    written = ProfilerInfoFactory(path=tmp_path / "profiler_info_0.json")
    assert_fails_naming(warehouse_db, written.path, data, reason, "run_metadata")
