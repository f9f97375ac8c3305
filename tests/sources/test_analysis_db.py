"""torch_npu's analysis.db into step_trace_time and the communication tables."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.factories.analysis_db import DDL, AnalysisDbFactory
from tests.factories.rank_db import RankDbFactory, write_db
from tests.factories.text_exports import (
    CommunicationEntryFactory,
    CommunicationJsonFactory,
    CommunicationMatrixFactory,
    StepTraceTimeFactory,
    TransportStatsFactory,
    link,
)
from warehouse import db
from warehouse.ingest import ingest_file, ingest_paths
from warehouse.sources import analysis_db, detect_source, rank_db

TABLES = ("step_trace_time", "communication_time", "communication_bandwidth", "communication_matrix")
OUTPUT = "ASCEND_PROFILER_OUTPUT"


def rows(conn, sql, *params):
    return conn.execute(sql, params).fetchall()


def ingest_ok(conn, path):
    result = ingest_file(conn, Path(path))
    assert result.status == "ok", result.error
    return result


def held(conn) -> int:
    return sum(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES)


def test_values_units_and_rank(warehouse_db, tmp_path):
    path = tmp_path / "rank1_ascend_pt" / OUTPUT / "analysis.db"
    AnalysisDbFactory(path=path)
    result = ingest_ok(warehouse_db, path)
    # 1 step + 2 operators + 2 (operator, HCCS) + 2 pairs; RDMA moved nothing, so the db has no row of it
    assert (result.kind, result.rows) == ("analysis_db", 7)
    assert rows(warehouse_db, "SELECT rank_id, detail FROM source") == [(1, json.dumps({
        "tables_read": ["CommAnalyzerBandwidth", "CommAnalyzerMatrix", "CommAnalyzerTime", "StepTraceTime"],
        "tables_missing": [], "tables_ignored": [], "rank_id_from": "folder rank1_ascend_pt"}))]
    # us -> ns
    assert rows(warehouse_db, "SELECT source_row, rank_id, step_id, scope, scope_key, computing_ns, "
                              "communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, stage_ns, "
                              "bubble_ns, communication_not_overlapped_exclude_receive_ns, preparing_ns "
                              "FROM step_trace_time") == [
        (1, 1, 50, "rank", "1", 8873756, 101963203, 4028675, 105991878, 25744050, 136581000, 0, 101963203, 17902500)]
    # start us -> ns past a double's precision (1736408883732241.5 us); ms -> ns rounded half even
    assert rows(warehouse_db, "SELECT source_row, rank_id, step_id, comm_type, op_name, group_name, ts, elapse_ns, "
                              "transit_ns, wait_ns, synchronization_ns, idle_ns, wait_ratio, synchronization_ratio "
                              "FROM communication_time") == [
        (row, 1, 50, "collective", f"hcom_allReduce__586_{n}_1", "17522688603477080586", 1736408883732241500,
         79089520, 239185, 5646633, 5615692, 73203703, None, None) for row, n in ((1, 0), (2, 1))]
    # MB -> bytes (10**6), GB/s -> bytes/s (10**9); one row per operator and transport
    assert rows(warehouse_db, "SELECT source_row, op_name, transport_type, transit_bytes, transit_ns, "
                              "bandwidth_bytes_per_s, large_packet_ratio, size_distribution "
                              "FROM communication_bandwidth") == [
        (row, f"hcom_allReduce__586_{n}_1", "HCCS", 28647232, 1816836, 15767600000, 0.0,
         '{"2.064384": [12, 1.578891625]}') for row, n in ((1, 0), (2, 1))]
    assert rows(warehouse_db, "SELECT source_row, step_id, comm_type, op_name, link, src_rank, dst_rank, "
                              "transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s, task_op_name "
                              "FROM communication_matrix") == [
        (1, 50, "collective", "allreduce-top1", "0-0", 0, 0, "LOCAL", 4128776, 8220, 502274600000,
         "hcom_allReduce__586_0_1"),
        (2, 50, "collective", "allreduce-top1", "0-1", 0, 1, "HCCS", 37781504, 2153383, 17545200000,
         "hcom_allReduce__586_2_1"),
    ]


def _both_ways_documents():
    """A rank's step trace, communication and matrix documents with the cases the two exports differ on."""
    step_rows = StepTraceTimeFactory.build(path=None).rows + [
        {"Step": "51", "Computing": "0.0005", "Communication(Not Overlapped)": "1736408883732241.2",
         "Overlapped": "0", "Communication": "2.5", "Free": "0.0015", "Stage": "3", "Bubble": "0",
         "Communication(Not Overlapped and Exclude Receive)": "1e-3", "Preparing": None}]
    entry = CommunicationEntryFactory(bandwidth_info={
        "HCCS": TransportStatsFactory(size_distribution={"2.064384": [12, 13.069241187500003], "1.937312": [2, 0.5]}),
        "SDMA": TransportStatsFactory(size_distribution={}),
        "SIO": TransportStatsFactory(transit_size=0, transit_time=0, bandwidth=0, size_distribution={}),
    })
    communication = {"step50": {
        "p2p": {"hcom_send__1_0@42": CommunicationEntryFactory()},
        "collective": {"hcom_allReduce__586_0_1@17522688603477080586": entry, "Total Op Info": entry},
    }}
    matrix = {"step50": {"p2p": {}, "collective": {
        "allreduce-top1@17522688603477080586": {
            "0-0": link("LOCAL", 4.128775999999999, 0.008220156250000001, 502.2746, "hcom_allReduce__586_0_1"),
            "0-1": link("HCCS", 37.781504, 2.153383, 17.5452, "hcom_allReduce__586_2_1"),
        },
    }}}
    return step_rows, communication, matrix


#: the rows of each table as both exports give them: (table, columns, what only the text export has)
COMPARED = (
    ("step_trace_time", "rank_id, step_id, scope, scope_key, computing_ns, communication_not_overlapped_ns, "
                        "overlapped_ns, communication_ns, free_ns, stage_ns, bubble_ns, "
                        "communication_not_overlapped_exclude_receive_ns, preparing_ns", "0"),
    ("communication_time", "rank_id, step_id, comm_type, op_name, group_name, ts, elapse_ns, transit_ns, wait_ns, "
                           "synchronization_ns, idle_ns", "op_name = 'Total Op Info'"),
    ("communication_bandwidth", "rank_id, step_id, comm_type, op_name, group_name, transport_type, transit_bytes, "
                                "transit_ns, bandwidth_bytes_per_s, large_packet_ratio, size_distribution",
     "op_name = 'Total Op Info' OR transit_bytes + transit_ns + bandwidth_bytes_per_s = 0"),
    ("communication_matrix", "rank_id, step_id, comm_type, op_name, group_name, link, src_rank, dst_rank, "
                             "transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s, task_op_name", "0"),
)


def test_one_rank_exported_both_ways_gives_the_same_rows(warehouse_db, tmp_path):
    step_rows, communication, matrix = _both_ways_documents()
    text = tmp_path / "text" / "rank2_ascend_pt" / OUTPUT
    StepTraceTimeFactory(path=text / "step_trace_time.csv", rows=step_rows)
    CommunicationJsonFactory(path=text / "communication.json", document=communication)
    CommunicationMatrixFactory(path=text / "communication_matrix.json", document=matrix)
    database = tmp_path / "db" / "rank2_ascend_pt" / OUTPUT / "analysis.db"
    AnalysisDbFactory(path=database, step_trace=step_rows, communication=communication, matrix=matrix)
    ingest_paths(warehouse_db, [text])
    db_source = ingest_ok(warehouse_db, database).source_id
    for table, columns, text_only in COMPARED:
        from_text = rows(warehouse_db, f"SELECT {columns} FROM {table} WHERE source_id != ? AND NOT ({text_only}) "
                                       "ORDER BY source_id, source_row", db_source)
        from_db = rows(warehouse_db, f"SELECT {columns} FROM {table} WHERE source_id = ? ORDER BY source_row",
                       db_source)
        assert from_db == from_text, table
        assert from_db, table
    # the db's writer keeps no ratios
    assert rows(warehouse_db, "SELECT DISTINCT wait_ratio, synchronization_ratio FROM communication_time "
                              "WHERE source_id = ?", db_source) == [(None, None)]
    # the exact conversions the comparison covers, by hand
    assert rows(warehouse_db, "SELECT step_id, computing_ns, communication_not_overlapped_ns, free_ns, "
                              "communication_not_overlapped_exclude_receive_ns FROM step_trace_time "
                              "WHERE source_id = ? AND step_id = 51", db_source) == [
        (51, 0, 1736408883732241200, 2, 1)]  # 0.5 ns and 1.5 ns round half even
    assert rows(warehouse_db, "SELECT transport_type, size_distribution FROM communication_bandwidth "
                              "WHERE source_id = ? AND comm_type = 'collective'", db_source) == [
        ("HCCS", '{"2.064384": [12, 13.069241187500003], "1.937312": [2, 0.5]}'), ("SDMA", "{}")]


def test_older_file_missing_a_table_and_a_column(warehouse_db, tmp_path):
    path = tmp_path / "analysis.db"
    step = ("50", 1.5, 2, 0, 2, 3, 6.5, 0, 2)
    write_db(path, {"StepTraceTime": (DDL["StepTraceTime"].rsplit(",", 1)[0], [step])})
    result = ingest_ok(warehouse_db, path)
    assert result.rows == 1
    detail = json.loads(rows(warehouse_db, "SELECT detail FROM source")[0][0])
    assert detail == {
        "tables_read": ["StepTraceTime"],
        "tables_missing": ["CommAnalyzerBandwidth", "CommAnalyzerMatrix", "CommAnalyzerTime"],
        "tables_ignored": [], "rank_id_from": "unset", "columns_missing": {"StepTraceTime": ["preparing"]},
    }
    assert rows(warehouse_db, "SELECT rank_id, scope_key, step_id, computing_ns, stage_ns, preparing_ns "
                              "FROM step_trace_time") == [(-1, "-1", 50, 1500, 6500, None)]
    assert rows(warehouse_db, "SELECT rank_id FROM source") == [(-1,)]


def test_missing_tables_and_an_unknown_table(warehouse_db, tmp_path):
    path = tmp_path / "rank0_ascend_pt" / OUTPUT / "analysis.db"
    AnalysisDbFactory(path=path, omit=("CommAnalyzerMatrix", "StepTraceTime"),
                      extra_table=("CommAnalyzerFuture", "x TEXT, y NUMERIC", [("a", 1)]))
    result = ingest_ok(warehouse_db, path)
    assert result.rows == 4
    detail = json.loads(rows(warehouse_db, "SELECT detail FROM source")[0][0])
    assert (detail["tables_read"], detail["tables_missing"], detail["tables_ignored"]) == (
        ["CommAnalyzerBandwidth", "CommAnalyzerTime"], ["CommAnalyzerMatrix", "StepTraceTime"],
        ["CommAnalyzerFuture"])
    assert [held_rows for (held_rows,) in rows(warehouse_db, "SELECT count(*) FROM communication_time UNION ALL "
                                                             "SELECT count(*) FROM communication_bandwidth")] == [2, 2]


def test_bandwidth_without_packet_columns_has_no_size_distribution(warehouse_db, tmp_path):
    path = tmp_path / "analysis.db"
    columns = "hccl_op_name TEXT, group_name TEXT, transport_type TEXT, transit_size NUMERIC, step TEXT, type TEXT"
    write_db(path, {"CommAnalyzerBandwidth": (columns, [("op", "g", "HCCS", 1.5, "step3", "p2p")])})
    ingest_ok(warehouse_db, path)
    assert rows(warehouse_db, "SELECT step_id, comm_type, transit_bytes, transit_ns, size_distribution "
                              "FROM communication_bandwidth") == [(3, "p2p", 1500000, None, None)]


@pytest.mark.parametrize(
    "how,reason",
    (
        ("truncated", "malformed"),
        ("garbage", "byte 0: not an SQLite database"),
        ("empty", "empty file (0 bytes)"),
        ("no tables", "sqlite_master: not an analysis db"),
    ),
)
def test_corrupt_file_is_a_recorded_failure(warehouse_db, tmp_path, how, reason):
    path = tmp_path / "rank0_ascend_pt" / OUTPUT / "analysis.db"
    written = tmp_path / "whole.db"
    AnalysisDbFactory(path=written, extra_table=("Padding", "x TEXT", [("x" * 4000,) for _ in range(8)]))
    data = written.read_bytes()
    path.parent.mkdir(parents=True)
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        path.write_bytes(b"not a database" * 100)
    elif how == "empty":
        path.write_bytes(b"")
    else:
        write_db(path, {"Other": ("x TEXT", [("x",)])})
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind) == ("failed", "analysis_db")
    assert result.error.startswith(f"{path}: ") and "\n" not in result.error
    assert reason in result.error
    assert held(warehouse_db) == 0


def test_a_value_that_does_not_convert_names_the_file_table_row_and_column(warehouse_db, tmp_path):
    path = tmp_path / "analysis.db"
    # NUMERIC affinity keeps text that is not a number as text
    write_db(path, {"StepTraceTime": (DDL["StepTraceTime"], [("50", "abc", *[0] * 8)])})
    result = ingest_file(warehouse_db, path)
    assert result.status == "failed"
    assert result.error == f"{path}: StepTraceTime: row 1: computing: not a number: 'abc'"
    assert held(warehouse_db) == 0


def test_detect_by_content_and_name(tmp_path):
    renamed = tmp_path / "comm.sqlite"
    AnalysisDbFactory(path=renamed, omit=("StepTraceTime",))
    assert detect_source(renamed) is analysis_db
    # the name alone claims a file, so an unreadable analysis.db fails rather than is skipped
    assert analysis_db.detect(tmp_path / "analysis.db")
    other = tmp_path / "other.db"
    write_db(other, {"ClusterCommAnalyzerTime": ("x TEXT", [])})
    assert not analysis_db.detect(other)
    assert not analysis_db.detect(tmp_path / "missing.sqlite")
    # a rank db stays a rank db, even named analysis.db; an analysis.db is no rank db
    rank = RankDbFactory(path=tmp_path / "ascend_pytorch_profiler_0.db")
    assert not analysis_db.detect(rank.path)
    disguised = tmp_path / "disguised" / "analysis.db"
    disguised.parent.mkdir()
    disguised.write_bytes(rank.path.read_bytes())
    assert detect_source(disguised) is rank_db
    assert not rank_db.detect(renamed)


def test_real_files_every_row(tmp_path, realdata):
    files = sorted((realdata / "msinsight" / "pytorch" / "db").glob(f"level*/rank*_ascend_pt/{OUTPUT}/analysis.db"))
    assert len(files) == 4
    for path in files:
        conn = db.connect(tmp_path / f"{path.parts[-4]}_{path.parts[-3]}.db")
        result = ingest_ok(conn, path)
        assert result.kind == "analysis_db"
        rank = int(path.parts[-3][len("rank")])
        source = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
        present = {name for (name,) in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

        def count(table, sql=None):
            if table not in present:
                return 0
            return source.execute(sql or f"SELECT count(*) FROM {table}").fetchone()[0]

        expected = {
            "step_trace_time": count("StepTraceTime"),
            "communication_time": count("CommAnalyzerTime"),
            # one warehouse row per operator and transport; the db has one per packet size
            "communication_bandwidth": count("CommAnalyzerBandwidth", "SELECT count(*) FROM (SELECT DISTINCT "
                                             "step, type, hccl_op_name, group_name, transport_type "
                                             "FROM CommAnalyzerBandwidth)"),
            "communication_matrix": count("CommAnalyzerMatrix"),
        }
        got = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES}
        assert got == expected, path
        assert result.rows == sum(expected.values())
        assert {r for (r,) in conn.execute(
            "SELECT DISTINCT rank_id FROM step_trace_time UNION SELECT rank_id FROM source")} == {rank}
        if "CommAnalyzerBandwidth" in present:
            packets = count("CommAnalyzerBandwidth", "SELECT count(*) FROM CommAnalyzerBandwidth WHERE count != 0")
            sizes = conn.execute("SELECT sum((SELECT count(*) FROM json_each(size_distribution))) "
                                 "FROM communication_bandwidth").fetchone()[0]
            assert sizes == packets
        source.close()
        conn.close()


def test_real_level1_rank0_by_hand(warehouse_db, realdata):
    path = realdata / "msinsight/pytorch/db/level1/rank0_ascend_pt" / OUTPUT / "analysis.db"
    ingest_ok(warehouse_db, path)
    # start_timestamp 1736410576431645.2 us, elapse_time 88.75099321875 ms, wait_time 6.000000000000001e-05 ms
    assert rows(warehouse_db, "SELECT op_name, ts, elapse_ns, transit_ns, wait_ns FROM communication_time "
                              "WHERE source_row IN (1, 2)") == [
        ("hcom_allReduce__210_0_1", 1736410576431645200, 88750993, 228565, 3568891),
        ("hcom_allReduce__210_1_1", 1736410576520400000, 2180324, 1316426, 60)]
    # StepTraceTime: step '50', computing 8903.431 us, communication 102108.1 us
    assert rows(warehouse_db, "SELECT step_id, computing_ns, communication_ns, scope_key FROM step_trace_time") == [
        (50, 8903431, 102108100, "0")]
    # HCCS of the first operator: 28.647232 MB, 1.82189634375 ms, 15.7239 GB/s, packets 2.064384 MB x12, 1.937312 MB x2
    assert rows(warehouse_db, "SELECT transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s, "
                              "size_distribution FROM communication_bandwidth WHERE source_row = 1") == [
        ("HCCS", 28647232, 1821896, 15723900000, '{"2.064384": [12, 1.58139153125], "1.937312": [2, 0.2405048125]}')]
