"""The cluster's shape as data (rank_group, rank_place, run_shape, cluster_shape) and the rules
that compare like with like: a slow rank against the other ranks of its pipeline stage, a
pipeline imbalance between stages, and every rank with every other (said so) where the run
does not say its shape."""

import json

import pytest

from tests.diagnosis import cluster as synth
from tests.factories.cluster_outputs import ClusterAnalysisDbFactory
from warehouse import db, ingest, queries
from warehouse.analysis import findings

#: PP 2 x DP 2: ranks 0, 1 are stage 0 and 2, 3 stage 1; each stage is one data-parallel pair
PP2_DP2 = {"dp": [[0, 1], [2, 3]], "pp": [[0, 2], [1, 3]]}
#: stage 1 runs more layers: its ranks compute 1.27x stage 0's (as the real run of the issue)
STAGE_1 = 1.27


def _evaluated(conn, finding_type):
    return [f.values for f in findings.evaluate(conn, finding_type)]


@pytest.fixture
def pipeline(warehouse_db):
    """A PP 2 x DP 2 cluster, one step, each data-parallel pair equal, stage 1 slower."""
    built = synth.build(warehouse_db, ranks=4, steps=(1,), compute_scale={2: STAGE_1, 3: STAGE_1})
    synth.place(warehouse_db, built, PP2_DP2)
    return built


def test_the_shape_places_each_rank_in_its_stage_and_data_parallel_group(warehouse_db, pipeline):
    places = warehouse_db.execute(
        "SELECT rank_id, shape_known, stage_id, dp_index, dp_ranks, pp_ranks, peer_key, said_by FROM rank_place "
        "ORDER BY rank_id").fetchall()
    assert places == [
        (0, 1, 0, 0, "[0,1]", "[0,2]", "stage 0", "parallel_group_info"),
        (1, 1, 0, 1, "[0,1]", "[1,3]", "stage 0", "parallel_group_info"),
        (2, 1, 1, 0, "[2,3]", "[0,2]", "stage 1", "parallel_group_info"),
        (3, 1, 1, 1, "[2,3]", "[1,3]", "stage 1", "parallel_group_info"),
    ]
    columns, rows = queries.get("cluster_shape").run(warehouse_db, {"run_id": pipeline.run_id})
    shape = dict(zip(columns, rows[0]))
    assert (shape["shape_known"], shape["ranks"], shape["dp_size"], shape["pp_size"], shape["tp_size"]) == (
        1, 4, 2, 2, None)
    assert [tuple(row[columns.index(c)] for c in ("rank_id", "stage_id", "dp_index")) for row in rows] == [
        (0, 0, 0), (1, 0, 1), (2, 1, 0), (3, 1, 1)]


def test_stages_computing_apart_are_a_pipeline_imbalance_and_no_slow_rank(warehouse_db, pipeline):
    assert _evaluated(warehouse_db, "slow_rank_suspected") == []
    assert _evaluated(warehouse_db, "dp_workload_imbalance") == []
    [imbalance] = _evaluated(warehouse_db, "pipeline_stage_imbalance")
    assert (imbalance["rank_id"], imbalance["step_id"], imbalance["subject"], imbalance["severity"]) == (
        2, 1, "pipeline stage 1", "medium")
    numbers = json.loads(imbalance["numbers"])
    assert (numbers["stage_id"], numbers["fastest_stage_id"], numbers["stages"]) == (1, 0, 2)
    assert numbers["ratio"] == pytest.approx(STAGE_1, abs=1e-3)
    assert numbers["compute_ns"] == 2 * 1_600_000 * STAGE_1 / 2  # the median of the stage's two equal ranks
    assert imbalance["message"].startswith("Pipeline stage 1 computes 1.27x pipeline stage 0 in step 1")


def test_a_rank_slower_than_its_data_parallel_peer_is_the_only_slow_rank(warehouse_db):
    built = synth.build(warehouse_db, ranks=4, steps=(1,), compute_scale={2: STAGE_1 * 1.2, 3: STAGE_1})
    synth.place(warehouse_db, built, PP2_DP2)
    [slow] = _evaluated(warehouse_db, "slow_rank_suspected")
    assert (slow["rank_id"], slow["step_id"]) == (2, 1)
    numbers = json.loads(slow["numbers"])
    assert (numbers["peers"], numbers["compared_with"]) == (1, "stage 1")
    assert numbers["ratio"] == pytest.approx(1.2, abs=1e-3)  # against rank 3 alone, not the mean of the pair
    assert "the median of the other ranks of pipeline stage 1 in step 1" in slow["message"]
    assert slow["message"].endswith("Compared with the 1 other rank of its pipeline stage only, never with another stage.")


def test_without_a_shape_every_rank_is_compared_and_the_finding_says_so(warehouse_db):
    synth.build(warehouse_db, ranks=4, steps=(1,), slow_rank=1)  # TP 4, no profiler_metadata.json
    assert warehouse_db.execute("SELECT shape_known, note FROM run_shape").fetchall() == [
        (0, "the run does not say its parallel groups")]
    assert {row[0] for row in warehouse_db.execute("SELECT peer_key FROM rank_place")} == {"every rank"}
    [slow] = _evaluated(warehouse_db, "slow_rank_suspected")
    assert (slow["rank_id"], json.loads(slow["numbers"])["compared_with"]) == (1, "every rank")
    assert slow["message"].endswith("Compared with every rank: the run does not say its parallel groups.")
    assert _evaluated(warehouse_db, "pipeline_stage_imbalance") == []


def test_the_real_metadata_of_one_rank_places_its_groups(realdata, tmp_path):
    conn = db.connect(tmp_path / "warehouse.db")
    ingest.ingest_paths(conn, [realdata / "msinsight" / "server_test_data" / "metadata"])
    groups = dict(conn.execute("SELECT group_name, global_ranks FROM rank_group WHERE rank_id = 0 AND kind IS NOT NULL "
                               "AND kind <> 'EP' AND kind <> 'CP'"))
    assert groups == {"dp": "[0,2]", "tp": "[0,1]", "pp": "[0,4]"}
    assert conn.execute("SELECT shape_known, world_size, dp_size, tp_size, pp_size, said_by FROM run_shape "
                        "WHERE ranks > 0 OR shape_known = 1").fetchall() == [(1, 8, 2, 2, 2, "parallel_group_info")]
    # rank 0's groups place its peers; distributed_args (Megatron's order) the ranks they do not name
    places = conn.execute("SELECT rank_id, stage_id, dp_index, said_by FROM rank_place ORDER BY rank_id").fetchall()
    assert places[0] == (0, 0, 0, "parallel_group_info") and places[4] == (4, 1, 0, "parallel_group_info")
    assert places[2] == (2, 0, 1, "parallel_group_info") and places[7][:3] == (7, 1, 1)


def test_communication_group_json_names_the_groups_where_no_metadata_does(realdata, tmp_path):
    conn = db.connect(tmp_path / "warehouse.db")
    ingest.ingest_paths(conn, [realdata / "msinsight" / "server_test_data" / "communication_group"])
    # its process-group names place every rank: the pipeline groups pair rank r with r + 4
    assert conn.execute("SELECT global_ranks, group_index, hccl_group, said_by FROM rank_group "
                        "WHERE rank_id = 4 AND kind = 'PP'").fetchall() == [
        ("[0, 4]", 1, "9609979115979062393", "communication_group")]
    assert conn.execute("SELECT rank_id, stage_id FROM rank_place WHERE stage_id = 1 ORDER BY rank_id").fetchall() == [
        (4, 1), (5, 1), (6, 1), (7, 1)]


def test_cluster_analysis_db_states_the_same_shape_as_communication_group_json(realdata, tmp_path):
    """The real 8-rank communication_group.json's groups, stored as msprof-analyze 26's db run stores the same
    groups (CommunicationGroupMapping, ranks '(0,4)'), place every rank as the json does."""
    real = realdata / "msinsight" / "server_test_data" / "communication_group" / "communication_group.json"
    infos = json.loads(real.read_text(encoding="utf-8"))["comm_group_parallel_info"]
    database = tmp_path / "db" / "cluster_analysis_output" / "cluster_analysis.db"
    ClusterAnalysisDbFactory(path=database, simplified=True, groups=[
        (g["type"], g["rank_set"], g["group_name"], g["group_id"], g["pg_name"]) for g in infos])
    shapes = {}
    for name, path in (("json", real), ("db", database)):
        conn = db.connect(tmp_path / f"{name}.db")
        assert [r.status for r in ingest.ingest_paths(conn, [path])] == ["ok"]
        shapes[name] = (
            conn.execute("SELECT rank_id, kind, group_name, global_ranks, group_index, hccl_group FROM rank_group "
                         "ORDER BY rank_id, group_name, global_ranks").fetchall(),
            conn.execute("SELECT rank_id, stage_id, dp_index, peer_key FROM rank_place ORDER BY rank_id").fetchall(),
            conn.execute("SELECT shape_known, world_size, dp_size, tp_size, pp_size, said_by FROM run_shape").fetchall())
        conn.close()
    assert shapes["db"][:2] == shapes["json"][:2]
    assert len(shapes["db"][0]) > 8 and shapes["db"][1][4] == (4, 1, 0, "stage 1")
    assert shapes["json"][2] == [(1, 8, 2, 2, 2, "communication_group")]
    assert shapes["db"][2] == [(1, 8, 2, 2, 2, "cluster_analysis_db")]
