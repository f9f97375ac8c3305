"""The rank db source (ascend_pytorch_profiler_{rank}.db): tables, names, units, timeline, ranks, bad files, real dbs."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.factories.rank_db import RankDbFactory, add_tiling, build_tables, write_db
from warehouse import db
from warehouse.audits import run_audits
from warehouse.ingest import ingest_file, ingest_paths
from warehouse.sources import detect_source, rank_db


def rows(conn, sql, *params):
    return conn.execute(sql, params).fetchall()


def one(conn, sql, *params):
    return conn.execute(sql, params).fetchone()[0]


def ingest_ok(conn, path, **kwargs):
    result = ingest_file(conn, Path(path), **kwargs)
    assert result.status == "ok", result.error
    return result


@pytest.fixture
def rank0(tmp_path):
    return RankDbFactory(path=tmp_path / "ascend_pytorch_profiler_0.db", rank_id=0)


@pytest.fixture
def ingested(warehouse_db, rank0):
    """The factory's rank 0 db, ingested; returns its source id."""
    return ingest_ok(warehouse_db, rank0.path).source_id


def test_detect_by_content(tmp_path, rank0, realdata):
    renamed = tmp_path / "profile.sqlite"
    renamed.write_bytes(rank0.path.read_bytes())
    assert detect_source(renamed) is rank_db
    analysis = next(realdata.glob("msinsight/pytorch/db/level0/*/ASCEND_PROFILER_OUTPUT/analysis.db"))
    assert not rank_db.detect(analysis)
    other = tmp_path / "other.db"
    write_db(other, {"T": ("x INTEGER", [(1,)])})
    assert not rank_db.detect(other)
    assert not rank_db.detect(tmp_path / "missing.sqlite")


def test_cann_only_db_inside_a_torch_run_is_left_to_the_rank_db(warehouse_db, tmp_path):
    # msprof's own db in the PROF_ folder of a torch_npu run holds the CANN half of the rank db
    cann_only = ("PYTORCH_API", "CONNECTION_IDS", "PYTORCH_CALLCHAINS", "MEMORY_RECORD", "OP_MEMORY", "GC_RECORD")
    inside = tmp_path / "rank0_ascend_pt" / "PROF_000001_x" / "mindstudio_profiler_output" / "msprof_2025.db"
    RankDbFactory(path=inside, omit=cann_only)
    assert not rank_db.detect(inside)
    alone = tmp_path / "PROF_000001_x" / "mindstudio_profiler_output" / "msprof_2025.db"
    RankDbFactory(path=alone, omit=cann_only)
    assert rank_db.detect(alone)
    # a CANN-only db on its own is ingested: device tasks, kernels, CANN calls, no framework rows
    ingest_ok(warehouse_db, alone)
    assert rows(warehouse_db, "SELECT (SELECT COUNT(*) FROM kernel), (SELECT COUNT(*) FROM cann_api), "
                              "(SELECT COUNT(*) FROM pytorch_api), (SELECT COUNT(*) FROM flow)") == [(1, 2, 0, 2)]


# --- every table, exact counts and names ------------------------------------------------------------

EXPECTED_COUNTS = {
    "pytorch_api": 6, "callchain": 2, "memory_record": 5, "op_memory": 2, "gc_event": 1, "step": 2,
    "roce": 2, "nic": 2, "hccs": 2, "pcie": 1, "cann_api": 2, "communication_op": 1, "communication_task": 1,
    "npu_op_mem": 2, "npu_module_mem": 2, "kernel": 1, "_slice": 12, "flow": 9, "counter_track": 11, "_counter": 14,
    "process": 4, "thread": 6, "run_metadata": 9,
}


def test_every_table_exact_counts(warehouse_db, rank0, ingested):
    for table, expected in EXPECTED_COUNTS.items():
        assert one(warehouse_db, f"SELECT COUNT(*) FROM {table} WHERE source_id = ?", ingested) == expected, table
    # the input's own row counts, table by table
    for table, target in (("PYTORCH_API", "pytorch_api"), ("OP_MEMORY", "op_memory"), ("ROCE", "roce"),
                          ("PCIE", "pcie"), ("CANN_API", "cann_api")):
        assert one(warehouse_db, f"SELECT COUNT(*) FROM {target}") == len(rank0.rows(table))
    # memory_record: MEMORY_RECORD's rows and NPU_MEM's app rows (APP)
    assert one(warehouse_db, "SELECT COUNT(*) FROM memory_record") == len(rank0.rows("MEMORY_RECORD")) + 2
    source = rows(warehouse_db, "SELECT status, rank_id, card, row_count, detail FROM source WHERE id = ?", ingested)[0]
    assert source[:3] == ("ok", 0, "rank0")
    assert source[3] == sum(EXPECTED_COUNTS.values())  # (rank is a view over the sources: no row of its own)
    detail = json.loads(source[4])
    # ACC_PMU left out by the factory; the memory copies' tables are written at profiler level 2 only
    assert detail["tables_missing"] == ["ACC_PMU", "ENUM_MEMCPY_OPERATION", "MEMCPY_INFO"]
    assert detail["tables_ignored"] == ["VENDOR_EXTRA_METRICS"]
    assert "PYTORCH_API" in detail["tables_read"] and "TASK_PMU_INFO" in detail["tables_read"]
    assert detail["rank_id_from"] == "RANK_DEVICE_MAP"


def test_pytorch_api_names_text_timestamps_and_types(warehouse_db, rank0, ingested):
    t = rank0.ts0
    got = rows(warehouse_db, "SELECT source_row, rank_id, ts, dur, name, global_tid, connection_id, sequence_number, "
                             "input_dtypes, input_shapes, callchain_id, type FROM pytorch_api ORDER BY source_row")
    main, worker = (100 << 32) | 101, (100 << 32) | 102
    assert got == [
        (1, 0, t, 10_000, "train.py(10): step", main, None, None, None, None, None, "trace"),
        (2, 0, t + 1_000, 8_000, "aten::linear", main, None, 1, "float;float", '"8,16;16,16"', 0, "op"),
        (3, 0, t + 2_000, 6_000, "aten::matmul", main, 0, 2, "float;float", '"8,16;16,16"', None, "op"),
        (4, 0, t + 3_000, 500, "Enqueue", main, 1, None, None, None, None, "queue"),
        (5, 0, t + 4_000, 3_000, "Dequeue@aten::matmul", worker, 2, None, None, None, None, "queue"),
        (6, 0, t + 9_500, 0, "mark", main, None, None, None, None, None, "mstx"),
    ]
    # the TEXT startNs became an exact integer, not a float
    assert rows(warehouse_db, "SELECT DISTINCT typeof(ts) FROM pytorch_api") == [("integer",)]
    assert rows(warehouse_db, "SELECT callchain_id, depth, frame FROM callchain ORDER BY depth") == [
        (0, 0, "train.py(10): step"), (0, 1, "model.py(5): forward"),
    ]


def test_memory_and_interconnect_units(warehouse_db, rank0, ingested):
    t = rank0.ts0
    assert rows(warehouse_db, "SELECT device_id, component, ts, total_allocated_bytes, total_reserved_bytes, "
                              "total_active_bytes, stream_ptr FROM memory_record ORDER BY ts") == [
        (0, "PTA", t + 100, 1024, 2048, 1024, 733279888),
        (0, "PTA", t + 200, 3072, 4096, 3072, 733279888),
        (0, "GE", t + 300, 512, 4096, 512, 733279888),
        # NPU_MEM's app rows: the whole process, reserved only (ddr + hbm), as memory_record.csv's APP rows
        (0, "APP", t + 1_000, None, 2212077568, None, None),
        (0, "APP", t + 2_000, None, 2312077568, None, None),
    ]
    assert rows(warehouse_db, "SELECT name, size_bytes, allocation_ts, release_ts, active_release_ts, dur, active_dur, "
                              "allocation_total_allocated_bytes, release_total_active_bytes FROM op_memory "
                              "ORDER BY source_row") == [
        ("aten::matmul", 2048, t + 2_100, t + 7_900, t + 7_950, 5_800, 5_850, 3072, 1024),
        ("aten::linear", 512, t + 1_100, t + 8_900, t + 8_950, 7_800, 7_850, 512, 0),
    ]
    assert rows(warehouse_db, "SELECT global_tid, ts, dur FROM gc_event") == [((100 << 32) | 101, t + 9_600, 300)]
    assert rows(warehouse_db, "SELECT device_id, ts, bandwidth_bytes_per_s, rx_byte_rate, rx_dropped, tx_byte_rate, "
                              "tx_bytes, tx_errors FROM roce ORDER BY ts") == [
        (0, t + 1_000, 25_000_000_000, 1.5e9, 0, 1.25e9, 3686400, 1),
        (0, t + 2_000, 25_000_000_000, 1.6e9, 2, 1.3e9, 3891200, 1),
    ]
    assert rows(warehouse_db, "SELECT func_id, rx_packets FROM nic ORDER BY ts") == [(1, 10), (1, 12)]
    assert rows(warehouse_db, "SELECT tx_throughput, rx_throughput FROM hccs ORDER BY ts") == [
        (3.5e10, 3.25e10), (3.0e10, 2.75e10),
    ]
    assert rows(warehouse_db, "SELECT tx_post_min, tx_nonpost_latency_avg, rx_post_min, rx_cpl_avg FROM pcie") == [
        (1000.0, 12000.0, 13000.0, 21000.0),
    ]
    assert rows(warehouse_db, "SELECT operator_name, type, size_bytes, ts, total_allocate_bytes, component "
                              "FROM npu_op_mem ORDER BY ts") == [
        ("MatMul_1", "allocate", 51445760, t + 5_000, 51511296, "GE"),
        ("MatMul_1", "release", 51445760, t + 7_500, 65536, "GE"),
    ]


def test_cann_and_communication_tables(warehouse_db, rank0, ingested):
    t = rank0.ts0
    assert rows(warehouse_db, "SELECT ts, dur, type, connection_id, name FROM cann_api ORDER BY ts") == [
        (t + 4_100, 2_800, "acl", 600, "aclnnMatmul"), (t + 4_200, 100, "node", 601, "launch"),
    ]
    assert rows(warehouse_db, "SELECT device_id, name, op_type, group_name, ts, dur, data_type, alg_type, count, "
                              "relay, retry, op_id, connection_id FROM communication_op") == [
        (0, "hcom_allReduce__1", "hcom_allReduce_", "group0", t + 7_900, 1_200, "FP16", "MESH-RING", 1024, 0, 0,
         1, 700),
    ]
    assert rows(warehouse_db, "SELECT c.name, c.global_task_id, c.task_type, c.group_name, c.rdma_type, c.src_rank, "
                              "c.dst_rank, c.transport_type, c.size_bytes, c.data_type, c.link_type, c.op_id, s.ts "
                              "FROM communication_task AS c JOIN slice AS s ON s.id = c.slice_id") == [
        ("hcom_allReduce__1", 12, "Notify Wait", "group0", "INVALID_TYPE", 0, 1, "SDMA", 2048, "FP16", "HCCS", 1,
         t + 8_000),
    ]


def test_kernel_from_task_compute_info_and_pmu(warehouse_db, rank0, ingested):
    t = rank0.ts0
    got = rows(warehouse_db, """
        SELECT origin, rank_id, device_id, step_id, stream_id, task_id, global_task_id, name, op_type, task_type,
               ts, dur, block_dim, mix_block_dim, input_shapes, input_dtypes, input_formats, output_shapes,
               aicore_ns, aic_total_cycles, aic_mac_ns, aic_mac_ratio, aic_mte2_ns, aiv_ns, metrics, source_row
        FROM kernel""")
    assert got == [(
        "rank_db", 0, 0, 1, 2, 1, 10, "MatMul_1", "MatMul", "AI_CORE", t + 5_000, 2_500, 20, 0, "8,16;16,16",
        "FLOAT16;FLOAT16", "ND;ND", "8,16", 2400, 4320, 1201, 0.5, 800, 0, '{"aic_l2_hit_rate":0.9}', 1,
    )]
    # the device task slice of the kernel, and the classifier (issue 5) ran on it
    assert rows(warehouse_db, "SELECT s.name, s.category, s.ts FROM kernel AS k JOIN slice AS s ON s.id = k.slice_id"
                ) == [("MatMul_1", "KERNEL_AICORE", t + 5_000)]
    assert one(warehouse_db, "SELECT op_class FROM kernel") is not None


def test_kernel_step_is_the_last_step_started_at_or_before_it(warehouse_db, tmp_path):
    """A kernel's step (rank_db/_task_step.sql, also stage 1's): the last step begun at or before the
    kernel's start, so a kernel in the gap between two steps is the earlier step's (the profiler's rule,
    the view kernel_step's); none before the first step.
    Checked against the rule written here over the factory's steps and tasks."""
    t = 1_736_410_576_000_000_000
    tables = build_tables(0, 0, t, True, "blockDim")
    add_tiling(tables, t, 0, "host", 3)  # steps 3-5 after a gap behind step 2
    task, compute = tables["TASK"][1], tables["COMPUTE_TASK_INFO"][1]
    matmul = next(row for row in task if row[4] == 10)
    info = next(row for row in compute if row[1] == 10)
    for global_task, start in ((90, t - 500), (91, t + 50_000)):  # before step 1; between steps 2 and 3
        task.append((start, start + 100, matmul[2], None, global_task, *matmul[5:9], 900 + global_task, matmul[10]))
        compute.append((info[0], global_task, *info[2:]))
    path = tmp_path / "ascend_pytorch_profiler_0.db"
    write_db(path, tables)
    ingest_ok(warehouse_db, path)

    def step_of(start):
        begun = [step for step in tables["STEP_TIME"][1] if step[1] <= start]
        last = max(begun, key=lambda step: step[1], default=None)
        return last[0] if last else None  # the profiler's rule: to the next step's start

    kernels = {row[1] for row in compute}
    expected = sorted((row[4], step_of(row[0])) for row in task if row[4] in kernels)
    got = rows(warehouse_db, "SELECT global_task_id, step_id FROM kernel ORDER BY global_task_id")
    assert got == expected
    assert {step for _, step in got} == {None, 1, 2, 3, 4, 5}
    assert dict(got)[91] == 2  # between steps 2 and 3


def test_block_columns_of_current_cann(warehouse_db, tmp_path):
    current = RankDbFactory(path=tmp_path / "ascend_pytorch_profiler_0.db", block_columns="blockNum")
    ingest_ok(warehouse_db, current.path)
    assert rows(warehouse_db, "SELECT block_dim, mix_block_dim FROM kernel") == [(20, 0)]


def test_steps_rank_and_metadata(warehouse_db, rank0, ingested):
    t = rank0.ts0
    assert rows(warehouse_db, "SELECT rank_id, step_id, start_ns, end_ns FROM step ORDER BY step_id") == [
        (0, 1, t, t + 8_500), (0, 2, t + 8_500, t + 20_000),
    ]
    assert rows(warehouse_db, "SELECT rank_id, device_id, host_name, source_id FROM rank") == [(0, 0, "node0", ingested)]
    metadata = dict(rows(warehouse_db, "SELECT name, value FROM run_metadata WHERE rank_id = 0"))
    assert len(metadata.pop("captureDigest")) == 16  # what tells a twin (tests/sources/test_rank_db_twins.py)
    assert metadata == {
        "SCHEMA_VERSION": "1.0.0", "SCHEMA_VERSION_MAJOR": "1", "hostName": "node0", "hostUid": "3538958389648580163",
        "sessionStartNs": str(t - 1_000), "sessionEndNs": str(t + 30_000), "npu.0": "Ascend910B",
        # HOST_INFO.hostUid declared TEXT: torch_npu 6.0.rc3 or later, whose step trace measured the HCCL operators
        "stepTraceCommunication": "operator",
    }


def test_counters_with_units(warehouse_db, rank0, ingested):
    t = rank0.ts0
    got = rows(warehouse_db, "SELECT name, ts, value FROM counter ORDER BY name, ts")
    assert got == [
        ("device0.aicore_freq", t, 1800.0), ("device0.aicore_freq", t + 5_000, 1650.0),
        ("device0.hbm.0.read", t + 1_000, 1.5e9), ("device0.hbm.0.write", t + 1_000, 0.5e9),
        ("device0.llc.0.read.hit_rate", t + 1_000, 85.9), ("device0.llc.0.read.throughput", t + 1_000, 18168939544.0),
        ("device0.npu_mem.app.ddr", t + 1_000, 0.0), ("device0.npu_mem.app.ddr", t + 2_000, 0.0),
        ("device0.npu_mem.app.hbm", t + 1_000, 2212077568.0), ("device0.npu_mem.app.hbm", t + 2_000, 2312077568.0),
        ("device0.npu_module_mem.HCCL", t + 1_000, 1048576.0), ("device0.npu_module_mem.RUNTIME", t + 1_000, 2097152.0),
        ("device0.soc_bandwidth_level.l2_buffer_bw_level", t + 1_000, 3.0),
        ("device0.soc_bandwidth_level.mata_bw_level", t + 1_000, 5.0),
    ]
    assert rows(warehouse_db, "SELECT device_id, component, ts, total_reserved_bytes FROM npu_module_mem "
                              "ORDER BY component") == [(0, "HCCL", t + 1_000, 1048576), (0, "RUNTIME", t + 1_000, 2097152)]
    units = dict(rows(warehouse_db, "SELECT name, unit FROM counter_track"))
    assert units["device0.aicore_freq"] == "MHz"
    assert units["device0.hbm.0.read"] == "B/s"
    assert units["device0.npu_mem.app.hbm"] == "bytes"
    assert units["device0.llc.0.read.hit_rate"] == "%"


# --- the timeline ------------------------------------------------------------------------------------


def test_threads_slices_and_nesting(warehouse_db, rank0, ingested):
    t = rank0.ts0
    got = rows(warehouse_db, """
        SELECT p.name, p.pid, th.tid, th.max_dur, s.name, s.category, s.ts, s.depth,
               (SELECT name FROM slice WHERE id = s.parent_id)
        FROM slice AS s JOIN thread AS th ON th.id = s.thread_id JOIN process AS p ON p.id = th.process_id
        ORDER BY p.sort_index, th.tid, s.ts, s.depth""")
    assert got == [
        ("Python", "100", "101", 10_000, "train.py(10): step", "trace", t, 0, None),
        ("Python", "100", "101", 10_000, "aten::linear", "op", t + 1_000, 1, "train.py(10): step"),
        ("Python", "100", "101", 10_000, "aten::matmul", "op", t + 2_000, 2, "aten::linear"),
        ("Python", "100", "101", 10_000, "Enqueue", "queue", t + 3_000, 3, "aten::matmul"),
        ("Python", "100", "101", 10_000, "mark", "mstx", t + 9_500, 1, "train.py(10): step"),
        ("Python", "100", "102", 3_000, "Dequeue@aten::matmul", "queue", t + 4_000, 0, None),
        ("CANN", "100", "102", 2_800, "aclnnMatmul", "acl", t + 4_100, 0, None),
        ("CANN", "100", "102", 2_800, "launch", "node", t + 4_200, 1, "aclnnMatmul"),
        ("Ascend Hardware", "0", "2", 2_500, "MatMul_1", "KERNEL_AICORE", t + 5_000, 0, None),
        ("Ascend Hardware", "0", "2", 2_500, "EVENT_RECORD", "EVENT_RECORD", t + 7_600, 0, None),
        ("Ascend Hardware", "0", "3", 1_000, "hcom_allReduce__1", "Notify Wait", t + 8_000, 0, None),
        ("HCCL", "0", "group0", 1_200, "hcom_allReduce__1", "hcom_allReduce_", t + 7_900, 0, None),
    ]
    assert rows(warehouse_db, "SELECT DISTINCT rank_id FROM process") == [(0,)]
    # the fact tables point at their slices
    assert one(warehouse_db, "SELECT COUNT(*) FROM pytorch_api AS a JOIN slice AS s ON s.id = a.slice_id "
                             "AND s.name = a.name AND s.ts = a.ts") == 6
    assert one(warehouse_db, "SELECT COUNT(*) FROM cann_api AS a JOIN slice AS s ON s.id = a.slice_id "
                             "AND s.name = a.name") == 2


def test_flows_from_connection_ids(warehouse_db, ingested):
    got = rows(warehouse_db, """
        SELECT f.name, o.name, i.name, i.category, f.flow_key
        FROM flow AS f JOIN slice AS o ON o.id = f.slice_out JOIN slice AS i ON i.id = f.slice_in
        ORDER BY f.name, o.name, i.category""")
    assert got == [
        ("framework", "Enqueue", "Dequeue@aten::matmul", "queue", "600"),
        ("host_to_device", "aclnnMatmul", "MatMul_1", "KERNEL_AICORE", "600"),
        ("host_to_device", "launch", "EVENT_RECORD", "EVENT_RECORD", "601"),
        ("torch_to_cann", "Dequeue@aten::matmul", "aclnnMatmul", "acl", "600"),
        ("torch_to_cann", "Enqueue", "aclnnMatmul", "acl", "600"),
        ("torch_to_hccl", "aten::matmul", "hcom_allReduce__1", "hcom_allReduce_", "700"),
        ("torch_to_npu", "Dequeue@aten::matmul", "MatMul_1", "KERNEL_AICORE", "600"),
        ("torch_to_npu", "Enqueue", "MatMul_1", "KERNEL_AICORE", "600"),
        ("torch_to_npu", "aten::matmul", "hcom_allReduce__1", "Notify Wait", "700"),
    ]


# --- ranks of a cluster ------------------------------------------------------------------------------


def cluster(root: Path, ranks=(0, 1)):
    """The layout of a real cluster run: rank{N}_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_{N}.db."""
    return {
        n: RankDbFactory(path=root / f"rank{n}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{n}.db",
                         rank_id=n, device_id=n)
        for n in ranks
    }


def test_two_rank_cluster_separated_by_rank(warehouse_db, tmp_path):
    dbs = cluster(tmp_path / "run")
    results = ingest_paths(warehouse_db, [tmp_path / "run"])
    assert [(r.status, r.kind) for r in results] == [("ok", "rank_db"), ("ok", "rank_db")]
    assert rows(warehouse_db, "SELECT rank_id, device_id FROM rank ORDER BY rank_id") == [(0, 0), (1, 1)]
    for n, made in dbs.items():
        assert one(warehouse_db, "SELECT COUNT(*) FROM pytorch_api WHERE rank_id = ?", n) == 6
        assert one(warehouse_db, "SELECT MIN(ts) FROM pytorch_api WHERE rank_id = ?", n) == made.ts0
        assert rows(warehouse_db, "SELECT device_id, name FROM kernel WHERE rank_id = ?", n) == [(n, "MatMul_1")]
        assert rows(warehouse_db, "SELECT DISTINCT name FROM counter WHERE rank_id = ? AND name LIKE '%aicore%'", n
                    ) == [(f"device{n}.aicore_freq",)]
        assert one(warehouse_db, "SELECT COUNT(*) FROM slice AS s JOIN thread AS t ON t.id = s.thread_id "
                                 "JOIN process AS p ON p.id = t.process_id WHERE p.rank_id = ?", n) == 12
    # flows never cross ranks
    assert one(warehouse_db, """
        SELECT COUNT(*) FROM flow AS f
        JOIN _slice AS o ON o.id = f.slice_out JOIN _slice AS i ON i.id = f.slice_in
        WHERE o.source_id != i.source_id OR o.source_id != f.source_id""") == 0
    # every audit of `warehouse check` passes (row counts, nesting, flows, max_dur, ...)
    assert [a.audit.name for a in run_audits(warehouse_db) if not a.passed] == []
    # the same run again, in a second command: nothing changes
    again = ingest_paths(warehouse_db, [tmp_path / "run"])
    assert [r.status for r in again] == ["unchanged", "unchanged"]


def test_ranks_from_separate_commands_end_in_one_warehouse(warehouse_path, tmp_path):
    dbs = cluster(tmp_path / "run")
    for made in dbs.values():
        conn = db.connect(warehouse_path)
        ingest_ok(conn, made.path)
        conn.close()
    conn = db.connect(warehouse_path)
    assert rows(conn, "SELECT rank_id, COUNT(*) FROM pytorch_api GROUP BY rank_id") == [(0, 6), (1, 6)]
    conn.close()


def test_second_file_for_a_rank_is_a_conflict_and_force_replaces(warehouse_db, tmp_path, rank0, ingested):
    # beside the first: the same run (a rank db in another folder would be another run's)
    other = RankDbFactory(path=tmp_path / "ascend_pytorch_profiler_0_again.db", rank_id=0, ts0=rank0.ts0 + 777)
    result = ingest_file(warehouse_db, other.path)
    assert result.status == "failed"
    assert str(other.path) in result.error and str(rank0.path) in result.error
    assert "rank 0" in result.error
    assert one(warehouse_db, "SELECT COUNT(*) FROM pytorch_api") == 6
    assert one(warehouse_db, "SELECT MIN(ts) FROM pytorch_api") == rank0.ts0

    forced = ingest_ok(warehouse_db, other.path, force=True)
    assert rows(warehouse_db, "SELECT id, path FROM source WHERE status = 'ok'") == [(forced.source_id, str(other.path))]
    assert one(warehouse_db, "SELECT COUNT(*) FROM pytorch_api") == 6
    assert one(warehouse_db, "SELECT MIN(ts) FROM pytorch_api") == rank0.ts0 + 777
    assert rows(warehouse_db, "SELECT rank_id, source_id FROM rank") == [(0, forced.source_id)]


def test_the_same_rank_in_another_folder_is_another_run(warehouse_db, tmp_path, rank0, ingested):
    other = RankDbFactory(path=tmp_path / "second" / "ascend_pytorch_profiler_0.db", rank_id=0, ts0=rank0.ts0 + 777)
    assert ingest_ok(warehouse_db, other.path).status == "ok"
    assert rows(warehouse_db, "SELECT run_id, rank_id FROM rank ORDER BY run_id") == [(1, 0), (2, 0)]


def test_files_that_do_not_say_their_rank_never_conflict(warehouse_db, tmp_path):
    first = RankDbFactory(path=tmp_path / "a" / "profile.db", rank_id=0, rank_in_map=False)
    second = RankDbFactory(path=tmp_path / "b" / "profile.db", rank_id=1, rank_in_map=False)
    ingest_ok(warehouse_db, first.path)
    ingest_ok(warehouse_db, second.path)
    assert rows(warehouse_db, "SELECT rank_id, status FROM source ORDER BY id") == [(-1, "ok"), (-1, "ok")]
    assert one(warehouse_db, "SELECT COUNT(*) FROM pytorch_api WHERE rank_id = -1") == 12


def test_rank_from_file_name_then_profiler_info(warehouse_db, tmp_path):
    by_name = RankDbFactory(path=tmp_path / "a" / "ascend_pytorch_profiler_5.db", rank_id=5, rank_in_map=False)
    assert ingest_ok(warehouse_db, by_name.path) is not None
    assert rows(warehouse_db, "SELECT rank_id, card, json_extract(detail, '$.rank_id_from') FROM source") == [
        (5, "rank5", "file name"),
    ]
    folder = tmp_path / "rank6_ascend_pt"
    by_info = RankDbFactory(path=folder / "ASCEND_PROFILER_OUTPUT" / "profile.db", rank_id=6, rank_in_map=False)
    (folder / "profiler_info_6.json").write_text("{}")
    ingest_ok(warehouse_db, by_info.path)
    assert rows(warehouse_db, "SELECT rank_id FROM pytorch_api GROUP BY rank_id") == [(5,), (6,)]
    assert one(warehouse_db, "SELECT json_extract(detail, '$.rank_id_from') FROM source WHERE rank_id = 6"
               ) == "profiler_info_6.json"


# --- bad files ---------------------------------------------------------------------------------------


def fact_rows(conn) -> int:
    """Rows the source writes, all tables together (a failed ingest leaves none)."""
    return sum(one(conn, f"SELECT COUNT(*) FROM {table}") for table in EXPECTED_COUNTS) + one(
        conn, "SELECT COUNT(*) FROM rank")


def test_corrupt_file_is_a_recorded_failure(warehouse_db, tmp_path, rank0):
    truncated = tmp_path / "cut" / "ascend_pytorch_profiler_0.db"
    truncated.parent.mkdir()
    data = rank0.path.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    result = ingest_file(warehouse_db, truncated)
    assert (result.status, result.kind) == ("failed", "rank_db")
    assert result.error.startswith(str(truncated)) and "\n" not in result.error
    assert "malformed" in result.error
    assert fact_rows(warehouse_db) == 0


def test_sqlite_of_another_kind_named_as_rank_db_fails(warehouse_db, tmp_path):
    other = tmp_path / "ascend_pytorch_profiler_3.db"
    write_db(other, {"CommAnalyzerTime": ("hccl_op_name TEXT", [("x",)])})
    result = ingest_file(warehouse_db, other)
    assert result.status == "failed"
    assert result.error == (f"{other}: sqlite_master: not a rank db (needs STRING_IDS and PYTORCH_API or TASK; "
                            "has CommAnalyzerTime)")
    # the same kind of file under another name is not a rank db at all: it is torch_npu's analysis.db
    anonymous = tmp_path / "analysis.db"
    write_db(anonymous, {"CommAnalyzerTime": ("hccl_op_name TEXT", [("y",)])})
    assert ingest_file(warehouse_db, anonymous).kind == "analysis_db"


def test_empty_file_named_as_rank_db_fails(warehouse_db, tmp_path):
    # A rank's db that is empty is a failure (the rank is missing from the run), not a skip.
    empty = tmp_path / "ascend_pytorch_profiler_4.db"
    empty.write_bytes(b"")
    result = ingest_file(warehouse_db, empty)
    assert (result.status, result.kind) == ("failed", "rank_db")
    assert result.error == f"{empty}: empty file (0 bytes), not a rank db"


def test_anonymous_empty_file_is_skipped(warehouse_db, tmp_path):
    # An empty file with no rank db name is read by no source: the frame records it as skipped.
    empty = tmp_path / "notes.db"
    empty.write_bytes(b"")
    assert ingest_file(warehouse_db, empty).status == "skipped"


def test_not_sqlite_named_as_rank_db_fails(warehouse_db, tmp_path):
    text = tmp_path / "ascend_pytorch_profiler_2.db"
    text.write_text("not a database\n")
    result = ingest_file(warehouse_db, text)
    assert result.error == f"{text}: byte 0: not an SQLite database (no 'SQLite format 3' header)"


def test_input_left_unchanged_and_detached(warehouse_db, rank0, ingested):
    assert {name for _, name, _ in rows(warehouse_db, "PRAGMA database_list")} <= {"main", "temp"}
    assert not rows(warehouse_db, "SELECT name FROM temp.sqlite_master WHERE name LIKE 'rank_db%' OR name LIKE 'in_%'")
    assert not list(rank0.path.parent.glob(f"{rank0.path.name}-*"))


# --- the real dbs ------------------------------------------------------------------------------------

#: input table -> SQL counting its rows in the warehouse for one source (:s)
REAL_COUNTS = {
    "PYTORCH_API": "SELECT COUNT(*) FROM pytorch_api WHERE source_id = :s AND name IS NOT NULL",
    "PYTORCH_CALLCHAINS": "SELECT COUNT(*) FROM callchain WHERE source_id = :s AND frame IS NOT NULL",
    "MEMORY_RECORD": "SELECT COUNT(*) FROM memory_record WHERE source_id = :s AND component != 'APP'",
    "OP_MEMORY": "SELECT COUNT(*) FROM op_memory WHERE source_id = :s AND name IS NOT NULL",
    "STEP_TIME": "SELECT COUNT(*) FROM step WHERE source_id = :s",
    "CANN_API": "SELECT COUNT(*) FROM cann_api WHERE source_id = :s AND name IS NOT NULL",
    "COMMUNICATION_OP": "SELECT COUNT(*) FROM communication_op WHERE source_id = :s AND name IS NOT NULL",
    "COMMUNICATION_TASK_INFO": "SELECT COUNT(*) FROM communication_task WHERE source_id = :s AND name IS NOT NULL",
    "NPU_OP_MEM": "SELECT COUNT(*) FROM npu_op_mem WHERE source_id = :s",
    "COMPUTE_TASK_INFO": "SELECT COUNT(*) FROM kernel WHERE source_id = :s AND name IS NOT NULL",
    "META_DATA": "SELECT COUNT(*) FROM run_metadata WHERE source_id = :s AND name NOT LIKE 'npu.%' "
                 "AND name NOT IN ('hostName', 'hostUid', 'sessionStartNs', 'sessionEndNs', 'stepTraceCommunication', "
                 "'captureDigest')",
    "NPU_INFO": "SELECT COUNT(*) FROM run_metadata WHERE source_id = :s AND name LIKE 'npu.%'",
    "HOST_INFO": "SELECT COUNT(*) FROM run_metadata WHERE source_id = :s AND name = 'hostName'",
    "RANK_DEVICE_MAP": "SELECT COUNT(*) FROM rank WHERE rank_id IN (SELECT rank_id FROM source WHERE id = :s)",
    "AICORE_FREQ": "SELECT COUNT(*) FROM counter WHERE source_id = :s AND name LIKE '%.aicore_freq'",
    "HBM": "SELECT COUNT(*) FROM counter WHERE source_id = :s AND name LIKE '%.hbm.%'",
    "NPU_MODULE_MEM": "SELECT COUNT(*) FROM npu_module_mem WHERE source_id = :s AND component IS NOT NULL",
    # two series per row (ddr + hbm, hit rate + throughput, l2 + mata), four for ACC_PMU
    "NPU_MEM": "SELECT COUNT(*) / 2 FROM counter WHERE source_id = :s AND name LIKE '%.npu_mem.%'",
    "LLC": "SELECT COUNT(*) / 2 FROM counter WHERE source_id = :s AND name LIKE '%.llc.%'",
    "SOC_BANDWIDTH_LEVEL": "SELECT COUNT(*) / 2 FROM counter WHERE source_id = :s AND name LIKE '%.soc_bandwidth_level.%'",
    "ACC_PMU": "SELECT COUNT(*) / 4 FROM counter WHERE source_id = :s AND name LIKE '%.acc_pmu.%'",
    "TASK": "SELECT COUNT(*) FROM slice AS x JOIN thread AS t ON t.id = x.thread_id JOIN process AS p "
            "ON p.id = t.process_id WHERE x.source_id = :s AND p.name = 'Ascend Hardware'",
}


@pytest.mark.parametrize("level", ("level0", "level1"))
def test_real_dbs_every_table_exactly(tmp_path, realdata, level):
    folder = realdata / "msinsight" / "pytorch" / "db" / level
    conn = db.connect(tmp_path / f"{level}.db")
    results = ingest_paths(conn, [folder])
    ours = {r.path.name: r for r in results if r.kind == "rank_db"}
    assert sorted(ours) == ["ascend_pytorch_profiler_0.db", "ascend_pytorch_profiler_1.db"]
    assert all(r.status == "ok" for r in ours.values()), [r.error for r in ours.values()]
    assert all(r.kind != "rank_db" for r in results if r.path.name == "analysis.db")
    for name, result in ours.items():
        rank = int(name.rsplit("_", 1)[1].split(".")[0])
        source = sqlite3.connect(f"{result.path.as_uri()}?mode=ro&immutable=1", uri=True)
        present = {t for (t,) in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert present >= {"PYTORCH_API", "TASK", "COMPUTE_TASK_INFO", "CANN_API", "COMMUNICATION_OP"}
        for table, sql in REAL_COUNTS.items():
            if table in present:
                expected = source.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                assert conn.execute(sql, {"s": result.source_id}).fetchone()[0] == expected, (name, table)
        assert one(conn, "SELECT rank_id FROM source WHERE id = ?", result.source_id) == rank
        pmu_tasks = source.execute("SELECT COUNT(DISTINCT p.globalTaskId) FROM TASK_PMU_INFO AS p JOIN "
                                   "COMPUTE_TASK_INFO USING (globalTaskId)").fetchone()[0] if "TASK_PMU_INFO" in present else 0
        assert one(conn, "SELECT COUNT(*) FROM kernel WHERE source_id = ? AND aicore_ns IS NOT NULL",
                   result.source_id) == pmu_tasks
        # every slice of a thread nests in its parent
        assert one(conn, """
            SELECT COUNT(*) FROM _slice AS c JOIN _slice AS p ON p.id = c.parent_id
            WHERE c.source_id = ? AND (c.thread_id != p.thread_id OR c.ts < p.ts OR c.ts + c.dur > p.ts + p.dur)""",
                   result.source_id) == 0
        source.close()
    assert [a.audit.name for a in run_audits(conn) if not a.passed] == []
    conn.close()

