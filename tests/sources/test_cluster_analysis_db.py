"""msprof-analyze's cluster_analysis.db into step_trace_time and the communication tables."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.factories.cluster_outputs import GROUP, OP, ClusterAnalysisDbFactory, GroupCommunicationFactory
from tests.factories.rank_db import write_db
from tests.factories.text_exports import CommunicationGroupFactory, CommunicationJsonFactory
from warehouse import db
from warehouse.ingest import ingest_file, ingest_paths
from warehouse.sources import analysis_db, cluster_analysis_db, detect_source

OUTPUT = "cluster_analysis_output"


def rows(conn, sql, *params):
    return conn.execute(sql, params).fetchall()


def ingest_ok(conn, path):
    result = ingest_file(conn, Path(path))
    assert result.status == "ok", result.error
    return result


def test_values_units_and_ranks(warehouse_db, tmp_path):
    path = tmp_path / OUTPUT / "cluster_analysis.db"
    ClusterAnalysisDbFactory(path=path)
    assert detect_source(path) is cluster_analysis_db
    result = ingest_ok(warehouse_db, path)
    # 3 step rows + 3 operator rows + 2 (rank, operator, transport) rows + 2 pairs + 1 group
    assert (result.kind, result.rows) == ("cluster_analysis_db", 11)
    assert rows(warehouse_db, "SELECT rank_id, detail FROM source") == [(None, json.dumps({
        "tables_read": ["ClusterCommAnalyzerBandwidth", "ClusterCommAnalyzerMatrix", "ClusterCommAnalyzerTime",
                        "ClusterStepTraceTime", "CommunicationGroup"],
        "tables_missing": ["ClusterBaseInfo"], "tables_ignored": []}))]
    # the ranks '(0, 1)' as a JSON array; the group is in no parallel_group_info: no id, no pg_name
    assert rows(warehouse_db, "SELECT source_row, section, group_type, rank_set, group_name, group_id, pg_name "
                              "FROM communication_group") == [
        (1, "CommunicationGroup", "collective", "[0, 1]", GROUP, None, None)]
    # us -> ns; a rank row's rank is its index, a stage row's -1 with its ranks as the key
    assert rows(warehouse_db, "SELECT source_row, rank_id, step_id, scope, scope_key, computing_ns, "
                              "communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, stage_ns, "
                              "bubble_ns, communication_not_overlapped_exclude_receive_ns, preparing_ns "
                              "FROM step_trace_time ORDER BY source_row") == [
        (1, 0, 1, "rank", "0", 8873756, 101963203, 4028675, 105991878, 25744050, 136581000, 0, 101963203, 17902500),
        (2, 1, 1, "rank", "1", 9000500, 100000000, 4000000, 104000000, 25000250, 136000750, 500, 100000000,
         18000000),
        (3, -1, 1, "stage", "(0,1)", 9000500, 101963203, 4028675, 105991878, 25744050, 136581000, 500, 101963203,
         18000000),
    ]
    # start us -> ns past a double's precision; ms -> ns; the ratios as stored; no p2p/collective in the table
    assert rows(warehouse_db, "SELECT source_row, rank_id, step_id, comm_type, op_name, group_name, ts, elapse_ns, "
                              "transit_ns, wait_ns, synchronization_ns, idle_ns, wait_ratio, synchronization_ratio "
                              "FROM communication_time ORDER BY source_row") == [
        (1, 0, 2, None, OP, GROUP, 1736408883732241500, 79089520, 239185, 5646633, 5615692, 73203703, 0.9594, 0.9591),
        (2, 1, 2, None, OP, GROUP, 1736408883732300500, 1500000, 500000, 1000000, 250000, 0, 0.0, 0.0),
        (3, 0, 2, None, "Total Op Info", GROUP, 0, 79089520, 239185, 5646633, 5615692, 73203703, 0.9594, 0.9591),
    ]
    # the packet rows of one rank, operator and transport (band_type) are one row again
    assert rows(warehouse_db, "SELECT source_row, rank_id, step_id, op_name, transport_type, transit_bytes, "
                              "transit_ns, bandwidth_bytes_per_s, large_packet_ratio, size_distribution "
                              "FROM communication_bandwidth ORDER BY source_row") == [
        (1, 0, 2, OP, "HCCS", 28647232, 1816836, 15767600000, 0.0, '{"2.064384": [12, 1.578891625], "0.5": [3, 0.25]}'),
        (3, 1, 2, OP, "HCCS", 2000000, 500000, 4000000000, 0.0, '{"2": [1, 0.5]}'),
    ]
    assert rows(warehouse_db, "SELECT source_row, rank_id, step_id, comm_type, op_name, group_name, link, src_rank, "
                              "dst_rank, transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s, "
                              "task_op_name FROM communication_matrix ORDER BY source_row") == [
        (1, -1, 2, None, "allreduce-top1", GROUP, "0-1", 0, 1, "HCCS", 37781504, 2153383, 17545200000, OP),
        (2, -1, 2, None, "Total Op Info", GROUP, "1-0", 1, 0, "HCCS", 37781504, 2153383, 17545200000, None),
    ]


def test_same_rows_as_the_json_twin(warehouse_path, tmp_path):
    """The db's operator rows are the text file's, less the comm type neither says."""
    text = tmp_path / "text" / OUTPUT / "cluster_communication.json"
    GroupCommunicationFactory(path=text)
    database = tmp_path / "db" / OUTPUT / "cluster_analysis.db"
    ClusterAnalysisDbFactory(path=database, omit=("ClusterStepTraceTime", "ClusterCommAnalyzerMatrix"))
    conn = db.connect(warehouse_path)
    try:
        for path in (text, database):
            ingest_ok(conn, path)
        query = ("SELECT s.kind, t.rank_id, t.step_id, t.op_name, t.group_name, t.ts, t.elapse_ns, t.transit_ns, "
                 "t.wait_ns, t.synchronization_ns, t.idle_ns FROM communication_time AS t "
                 "JOIN source AS s ON s.id = t.source_id WHERE t.op_name = ? ORDER BY t.rank_id, s.kind")
        by_kind = {}
        for kind, *values in rows(conn, query, OP):
            by_kind.setdefault(kind, []).append(tuple(values))
        assert by_kind["cluster_analysis_db"] == by_kind["cluster_communication_json"]
        assert len(by_kind["cluster_analysis_db"]) == 2
        bandwidth = ("SELECT t.rank_id, t.transport_type, t.transit_bytes, t.transit_ns, t.bandwidth_bytes_per_s "
                     "FROM communication_bandwidth AS t JOIN source AS s ON s.id = t.source_id "
                     "WHERE s.kind = ? AND t.op_name = ? AND t.transit_bytes > 0 ORDER BY t.rank_id")
        assert rows(conn, bandwidth, "cluster_analysis_db", OP) == rows(
            conn, bandwidth, "cluster_communication_json", OP)
    finally:
        conn.close()


def test_data_simplification_names_and_missing_tables(warehouse_db, tmp_path):
    path = tmp_path / OUTPUT / "cluster_analysis.db"
    ClusterAnalysisDbFactory(path=path, simplified=True, omit=("ClusterStepTraceTime",))
    result = ingest_ok(warehouse_db, path)
    assert result.rows == 3 + 2 + 2 + 1
    detail = json.loads(rows(warehouse_db, "SELECT detail FROM source")[0][0])
    assert detail == {
        "tables_read": ["ClusterCommunicationBandwidth", "ClusterCommunicationMatrix", "ClusterCommunicationTime",
                        "CommunicationGroupMapping"],
        "tables_missing": ["ClusterBaseInfo", "ClusterStepTraceTime"], "tables_ignored": []}
    # msprof-analyze 26's '(0,1)'
    assert rows(warehouse_db, "SELECT section, rank_set, group_name FROM communication_group") == [
        ("CommunicationGroupMapping", "[0, 1]", GROUP)]
    assert rows(warehouse_db, "SELECT rank_id, elapse_ns FROM communication_time ORDER BY source_row") == [
        (0, 79089520), (1, 1500000), (0, 79089520)]
    assert rows(warehouse_db, "SELECT count(*) FROM step_trace_time") == [(0,)]


def test_missing_columns_read_as_null(warehouse_db, tmp_path):
    path = tmp_path / "cluster.db"  # any name: the tables decide
    write_db(path, {"ClusterCommAnalyzerTime": ("step TEXT,rank_id INTEGER,hccl_op_name TEXT,group_name TEXT",
                                                [("step4", 2, "hcom_send__1_0", "")])})
    assert cluster_analysis_db.detect(path) and not analysis_db.detect(path)
    ingest_ok(warehouse_db, path)
    assert rows(warehouse_db, "SELECT rank_id, step_id, op_name, group_name, elapse_ns FROM communication_time") == [
        (2, 4, "hcom_send__1_0", None, None)]
    assert json.loads(rows(warehouse_db, "SELECT detail FROM source")[0][0])["columns_missing"] == {
        "ClusterCommAnalyzerTime": ["start_timestamp", "elapsed_time", "transit_time", "wait_time",
                                    "synchronization_time", "idle_time", "synchronization_time_ratio",
                                    "wait_time_ratio"]}


def test_failures_name_the_file_and_table(warehouse_db, tmp_path):
    named = tmp_path / "a" / "cluster_analysis.db"
    named.parent.mkdir()
    named.write_text("not a database")
    assert detect_source(named) is cluster_analysis_db
    assert ingest_file(warehouse_db, named).error == (
        f"{named}: byte 0: not an SQLite database (no 'SQLite format 3' header)")
    other = tmp_path / "b" / "cluster_analysis.db"
    write_db(other, {"CommunicationGroup": ("type TEXT", [])})
    assert ingest_file(warehouse_db, other).error.startswith(
        f"{other}: sqlite_master: not a cluster analysis db (needs ClusterStepTraceTime")
    bad = tmp_path / "c" / "cluster_analysis.db"
    ClusterAnalysisDbFactory(path=bad, omit=("ClusterCommAnalyzerBandwidth", "ClusterCommAnalyzerMatrix"),
                             time=[("(0, 1)", "step2", 0, OP, GROUP, "soon", 1, 1, 1, 1, 1, 0, 0)])
    result = ingest_file(warehouse_db, bad)
    assert result.error.startswith(f"{bad}: ClusterCommAnalyzerTime: ")
    assert rows(warehouse_db, "SELECT count(*) FROM step_trace_time") == [(0,)]  # the failed file left no rows
    assert rows(warehouse_db, "SELECT count(*) FROM communication_time") == [(0,)]


def test_a_ranks_own_export_answers_before_the_cluster_db(warehouse_db, tmp_path):
    run = tmp_path / "run"
    CommunicationJsonFactory(path=run / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "communication.json")
    ClusterAnalysisDbFactory(path=run / OUTPUT / "cluster_analysis.db")
    results = ingest_paths(warehouse_db, [run])
    assert [r.status for r in results] == ["ok", "ok"]
    answers = rows(warehouse_db, "SELECT DISTINCT rank_id, kind FROM communication_time_answer ORDER BY rank_id")
    assert answers == [(0, "communication_json"), (1, "cluster_analysis_db")]
    assert rows(warehouse_db, "SELECT DISTINCT rank_id, kind FROM step_summary ORDER BY rank_id") == [
        (0, "cluster_analysis_db"), (1, "cluster_analysis_db")]
    assert rows(warehouse_db, "SELECT fact, precedence FROM fact_precedence WHERE kind = 'cluster_analysis_db' "
                              "ORDER BY fact") == [
        ("communication_matrix", 4), ("communication_summary", 4), ("step_summary", 4)]


#: PP 2 x DP 2 as msprof-analyze 26 stores the ranks' parallel_group_info (pg_name, the group id torch_npu
#: keys it by, the HCCL name the operators carry) in CommunicationGroupMapping
PP2_DP2 = [
    ("collective", [0, 1], "101", "127.0.0.1%lo_60000_0_1_0", "dp"),
    ("collective", [2, 3], "102", "127.0.0.1%lo_60000_0_1_2", "dp"),
    ("collective", [0, 2], "201", "127.0.0.1%lo_60000_0_2_0", "pp"),
    ("collective", [1, 3], "202", "127.0.0.1%lo_60000_0_2_1", "pp"),
    ("collective", [0, 1, 2, 3], "300", "127.0.0.1%lo_60000_0_0_0", "default_group"),
]


def test_the_groups_are_the_clusters_shape(warehouse_db, tmp_path):
    path = tmp_path / OUTPUT / "cluster_analysis.db"
    ClusterAnalysisDbFactory(path=path, simplified=True, groups=PP2_DP2)
    ingest_ok(warehouse_db, path)
    assert rows(warehouse_db, "SELECT rank_id, kind, global_ranks, group_index, hccl_group, said_by FROM rank_group "
                              "WHERE rank_id = 2 ORDER BY group_name") == [
        (2, None, "[0, 1, 2, 3]", 2, "300", "cluster_analysis_db"),
        (2, "DP", "[2, 3]", 0, "102", "cluster_analysis_db"),
        (2, "PP", "[0, 2]", 1, "201", "cluster_analysis_db")]
    assert rows(warehouse_db, "SELECT shape_known, world_size, dp_size, pp_size, said_by, note FROM run_shape") == [
        (1, 4, 2, 2, "cluster_analysis_db", "the parallel groups of cluster_analysis.db (CommunicationGroupMapping)")]
    assert rows(warehouse_db, "SELECT rank_id, stage_id, dp_index, peer_key FROM rank_place ORDER BY rank_id") == [
        (0, 0, 0, "stage 0"), (1, 0, 1, "stage 0"), (2, 1, 0, "stage 1"), (3, 1, 1, "stage 1")]


def test_communication_group_json_is_trusted_before_the_db(warehouse_db, tmp_path):
    """Both are msprof-analyze's copies of the ranks' parallel_group_info; where they differ the json wins."""
    run = tmp_path / "run"
    ClusterAnalysisDbFactory(path=run / OUTPUT / "cluster_analysis.db", groups=PP2_DP2)
    # the json (of another capture) pairs the ranks the other way round
    CommunicationGroupFactory(path=run / OUTPUT / "communication_group.json", document={
        "collective": [[0, 2], [1, 3]], "p2p": [],
        "comm_group_parallel_info": [
            {"type": "collective", "rank_set": ranks, "group_name": name, "group_id": f"id{name}", "pg_name": "dp"}
            for ranks, name in (([0, 2], "11"), ([1, 3], "12"))]})
    assert [r.status for r in ingest_paths(warehouse_db, [run])] == ["ok", "ok"]
    assert rows(warehouse_db, "SELECT kind, global_ranks, said_by FROM rank_group WHERE rank_id = 0 "
                              "AND kind IS NOT NULL ORDER BY kind") == [
        ("DP", "[0, 2]", "communication_group"), ("PP", "[0, 2]", "cluster_analysis_db")]
    assert rows(warehouse_db, "SELECT said_by FROM run_shape") == [("communication_group",)]


def test_a_rank_set_that_is_none_names_the_file_table_row_and_column(warehouse_db, tmp_path):
    path = tmp_path / OUTPUT / "cluster_analysis.db"
    ClusterAnalysisDbFactory(path=path, groups=PP2_DP2)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE CommunicationGroup SET rank_set = '0 and 2' WHERE rowid = 3")
    conn.close()
    assert ingest_file(warehouse_db, path).error == (
        f"{path}: CommunicationGroup: row 3: rank_set: not a rank set: '0 and 2'")
    assert rows(warehouse_db, "SELECT count(*) FROM communication_group") == [(0,)]


def test_its_distributed_args_give_the_shape_where_no_group_does(warehouse_db, tmp_path):
    """ClusterBaseInfo: the sizes msprof-analyze found in a rank's profiler_metadata.json (less its rank)."""
    path = tmp_path / OUTPUT / "cluster_analysis.db"
    args = {"tensor_model_parallel_size": 1, "pipeline_model_parallel_size": 2, "data_parallel_size": 2,
            "context_parallel_size": 1, "expert_model_parallel_size": 1, "sequence_parallel": False, "world_size": 4}
    ClusterAnalysisDbFactory(path=path, distributed_args=args)
    ingest_ok(warehouse_db, path)
    assert rows(warehouse_db, "SELECT rank_id, name, value FROM run_metadata") == [
        (None, "distributed_args", json.dumps(args))]
    assert rows(warehouse_db, "SELECT rank_id, dp_size, tp_size, pp_size, world_size FROM parallel_size") == [
        (None, 2, 1, 2, 4)]
    assert rows(warehouse_db, "SELECT shape_known, groups_known, world_size, dp_size, pp_size, said_by "
                              "FROM run_shape") == [(1, 0, 4, 2, 2, "distributed_args")]
