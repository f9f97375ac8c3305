"""Tiling sink (seed 002, issue 18 item 3), from rank dbs written by the byte-exact factory.

Three runs of one rank, each with three 1 ms steps of two tiling-dependent operators
(FusedInferAttentionScore: 30 us of host tiling, GroupedMatmul: 12 us): tiled on the host every
step with the same shapes (a static-shape graph: host_tiling_not_sunk advises tiling sink), with
shapes that grow each step (dynamic shapes: no advice), and sunk to the device (the AICPU tiling
task -> wait -> 8 NOPs -> kernel -> model task update -> record found by tiling_sink_kernels; no
finding). Ingested and analysed through the CLI; every evidence row is read back in the rank db.
"""

import json
import sqlite3

import pytest
from click.testing import CliRunner

from tests.factories.rank_db import TILED_OPS, TILING_NOPS, RankDbFactory
from warehouse import db, queries
from warehouse.cli import cli

STEP_NS = 1_000_000
HOST_TILING_NS = sum(tiling_ns for _, _, tiling_ns, _ in TILED_OPS)


def analysed(runner, tmp_path, tiling, chip: str | None = None):
    """Ingest and analyse one rank db of the given tiling mode; return (the written db, the warehouse)."""
    folder = tmp_path / "-".join((tiling,) if isinstance(tiling, str) else tiling)
    written = RankDbFactory(path=folder / "ascend_pytorch_profiler_0.db", rank_id=0, tiling=tiling)
    if chip is not None:  # another device: what NPU_INFO says of it
        with sqlite3.connect(written.path) as raw:
            raw.execute("UPDATE NPU_INFO SET name = ?", (chip,))
    warehouse_path = folder.with_suffix(".db")
    for command in (["ingest", str(written.path.parent), "--db", str(warehouse_path), "-q"],
                    ["analyze", "--db", str(warehouse_path)]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 0, result.output
    return written, db.connect_readonly(warehouse_path)


def raw_rows(path, table: str, rows: list[int]) -> list[tuple]:
    """Rows of the rank db's table by rowid, with STRING_IDS resolved for the columns named by id."""
    with sqlite3.connect(path) as raw:
        text = dict(raw.execute("SELECT id, value FROM STRING_IDS").fetchall())
        if table == "CANN_API":
            query = "SELECT name, endNs - startNs FROM CANN_API WHERE rowid = ?"
            return [(text[name], dur) for row in rows for name, dur in raw.execute(query, (row,)).fetchall()]
        query = ("SELECT t.taskType, t.streamId, c.opType, c.inputShapes FROM TASK AS t "
                 "LEFT JOIN COMPUTE_TASK_INFO AS c ON c.globalTaskId = t.globalTaskId WHERE t.rowid = ?")
        return [(text[task_type], stream, text.get(op_type), text.get(shapes))
                for row in rows for task_type, stream, op_type, shapes in raw.execute(query, (row,)).fetchall()]


def tiling_findings(conn):
    return conn.execute("SELECT id, rank_id, step_id, severity, confidence, message, numbers FROM finding "
                        "WHERE finding_type = 'host_tiling_not_sunk'").fetchall()


def evidence_of(conn, finding_id):
    return conn.execute(
        "SELECT s.path, e.table_name, e.source_row, e.kernel_id, e.note FROM finding_evidence AS e "
        "JOIN source AS s ON s.id = e.input_source_id WHERE e.finding_id = ? ORDER BY e.position",
        (finding_id,)).fetchall()


@pytest.fixture(scope="module")
def host_tiled(tmp_path_factory):
    """The host-tiled rank db ingested and analysed once per module (two tests read it, seconds each):
    (the written db, a read-only connection to the warehouse)."""
    written, conn = analysed(CliRunner(), tmp_path_factory.mktemp("host-tiled"), "host")
    yield written, conn
    conn.close()


def test_host_tiling_repeated_every_step_of_a_static_graph_advises_tiling_sink(host_tiled):
    written, conn = host_tiled
    [(finding_id, rank, step, severity, confidence, message, numbers)] = tiling_findings(conn)
    # 42 us of host tiling in each 1 ms step: 4.2 %, medium (high from 5 %); a 910B with no sunk kernel
    assert (rank, step, severity, confidence) == (0, None, "medium", "high")
    assert json.loads(numbers) == {
        "steps": 3, "host_tiling_ns": 3 * HOST_TILING_NS, "host_tiling_ns_per_step": HOST_TILING_NS,
        "max_step_ns": HOST_TILING_NS, "calls_per_step": 2, "share": HOST_TILING_NS / STEP_NS, "op_types": 2,
        "dynamic_op_types": 0, "sunk_updates": 0, "chip": "Ascend910B"}
    assert message == (
        "Rank 0: the host tiles 2 operator types again every step (42.000 us per step, 4.2% of the step, over 3 "
        "steps) with the same shapes each time: enable tiling sink (ge.tiling_schedule_optimize=1, "
        "atc --tiling_schedule_optimize=1; static-shape graphs on Atlas A2/A3) so their tiling runs on the "
        "device's AICPU.")
    evidence = evidence_of(conn, finding_id)
    path = str(written.path)
    # per operator type, most host time first: its first tiling call (CANN_API rowid = connectionId) and its kernel
    assert [(p, table, row) for p, table, row, _, _ in evidence] == [
        (path, "cann_api", 2001), (path, "kernel", 4), (path, "cann_api", 2004), (path, "kernel", 5)]
    assert raw_rows(written.path, "CANN_API", [2001, 2004]) == [
        ("FusedInferAttentionScore_Tiling", 30_000), ("GroupedMatmul_Tiling", 12_000)]
    assert raw_rows(written.path, "TASK", [4, 5]) == [
        ("KERNEL_AICORE", 2, "FusedInferAttentionScore", '"1,8,128,128;1,8,128,128"'),
        ("KERNEL_AICORE", 2, "GroupedMatmul", '"128,4096;8,4096,1536"')]
    kernel_ids = [kernel_id for _, table, _, kernel_id, _ in evidence if table == "kernel"]
    assert conn.execute(f"SELECT source_row, op_type FROM kernel WHERE id IN ({', '.join('?' * 2)}) ORDER BY id",
                        kernel_ids).fetchall() == [(4, "FusedInferAttentionScore"), (5, "GroupedMatmul")]
    assert [note for *_, note in evidence] == [
        "host tiling FusedInferAttentionScore_Tiling took 30.000 us, again in each of 3 steps",
        "the FusedInferAttentionScore kernel it tiled, input shapes 1,8,128,128;1,8,128,128 in every step",
        "host tiling GroupedMatmul_Tiling took 12.000 us, again in each of 3 steps",
        "the GroupedMatmul kernel it tiled, input shapes 128,4096;8,4096,1536 in every step"]
    # nothing is sunk in this run
    assert queries.get("tiling_sink_kernels").run(conn)[1] == []


def test_the_rule_reads_its_thresholds(host_tiled):
    _, conn = host_tiled
    rule = queries.get("rule_host_tiling_not_sunk")
    columns, rows = rule.run(conn, {"high_share": 0.04})
    assert {row[columns.index("severity")] for row in rows} == {"high"}
    assert rule.run(conn, {"min_ns": HOST_TILING_NS + 1})[1] == []  # 42 us per step is under 42.001 us
    assert rule.run(conn, {"min_steps": 4})[1] == []  # tiled in 3 steps only
    columns, rows = rule.run(conn, {"evidence_limit": 2})
    assert [row[columns.index("evidence_table")] for row in rows] == ["cann_api", "kernel"]


def test_a_chip_without_tiling_sink_gets_no_advice_to_enable_it(runner, tmp_path):
    _, conn = analysed(runner, tmp_path, "host", chip="Ascend310P3")
    [(_, _, _, severity, confidence, message, numbers)] = tiling_findings(conn)
    assert (severity, confidence, json.loads(numbers)["chip"]) == ("medium", "low", "Ascend310P3")
    assert message.endswith("with the same shapes each time: tiling sink would move it to the device but needs "
                            "Atlas A2/A3 (Ascend310P3).")
    assert "tiling_schedule_optimize" not in message


def test_dynamic_shapes_get_no_tiling_sink_advice(runner, tmp_path):
    _, conn = analysed(runner, tmp_path, "host_dynamic")
    assert tiling_findings(conn) == []
    # the host still tiles both operators in all three steps: their shapes change, so tiling sink does not apply
    assert conn.execute("SELECT name, count(*) FROM cann_api WHERE name LIKE '%_Tiling' GROUP BY name "
                        "ORDER BY name").fetchall() == [("FusedInferAttentionScore_Tiling", 3),
                                                        ("GroupedMatmul_Tiling", 3)]
    assert conn.execute("SELECT count(DISTINCT input_shapes) FROM kernel WHERE op_type = 'GroupedMatmul'"
                        ).fetchone() == (3,)


def test_sunk_tiling_is_found_on_the_task_streams_and_gives_no_finding(runner, tmp_path):
    written, conn = analysed(runner, tmp_path, "sunk")
    assert tiling_findings(conn) == []
    columns, rows = queries.get("tiling_sink_kernels").run(conn)
    found = [dict(zip(columns, row)) for row in rows]
    assert [(k["step_id"], k["op_type"], k["nops"], k["complete"], k["stream_id"], k["tiling_ns"]) for k in found] == [
        (step, op_type, TILING_NOPS, 1, 2, 20_000) for step in (3, 4, 5) for op_type, *_ in TILED_OPS]
    # each part of each sequence is the task the factory wrote, in the seed's order, read back in TASK by rowid
    slice_rows = dict(conn.execute("SELECT id, source_row FROM slice").fetchall())
    for kernel in found:
        parts = ("tiling_slice_id", "wait_slice_id", "kernel_slice_id", "update_slice_id", "record_slice_id")
        rows = [slice_rows[kernel[part]] for part in parts]
        assert [task[:2] for task in raw_rows(written.path, "TASK", rows)] == [
            ("KERNEL_AICPU", 5), ("EVENT_WAIT", 2), ("KERNEL_AICORE", 2), ("MODEL_TASK_UPDATE", 5),
            ("EVENT_RECORD", 5)]
        # the NOPs sit between the wait and the kernel on the kernel's stream
        nops = raw_rows(written.path, "TASK", list(range(rows[1] + 1, rows[2])))
        assert [task[:2] for task in nops if task[1] == 2] == [("NOP", 2)] * TILING_NOPS


@pytest.mark.parametrize("missing", ("MODEL_TASK_UPDATE", "NOP"))
def test_an_incomplete_sequence_is_not_taken_for_a_sunk_kernel(runner, tmp_path, missing):
    written = RankDbFactory(path=tmp_path / "raw" / "ascend_pytorch_profiler_0.db", rank_id=0, tiling="sunk")
    with sqlite3.connect(written.path) as raw:
        raw.execute("DELETE FROM TASK WHERE taskType = (SELECT id FROM STRING_IDS WHERE value = ?)", (missing,))
    warehouse_path = tmp_path / "warehouse.db"
    assert runner.invoke(cli, ["ingest", str(written.path.parent), "--db", str(warehouse_path), "-q"]).exit_code == 0
    columns, rows = queries.get("tiling_sink_kernels").run(db.connect_readonly(warehouse_path))
    found = [dict(zip(columns, row)) for row in rows]
    if missing == "NOP":  # the wait is right before the kernel: no prefetch cover, not the sink sequence
        assert found == []
    else:  # the wait -> NOPs -> kernel anchor stays, marked incomplete
        assert [(k["nops"], k["update_slice_id"], k["record_slice_id"], k["complete"]) for k in found] == [
            (TILING_NOPS, None, None, 0)] * 6


def test_an_operator_left_on_the_host_beside_sunk_ones_is_reported_without_the_advice_to_enable_it(runner, tmp_path):
    # tiling sink is on: FusedInferAttentionScore is sunk, GroupedMatmul still tiles on the host every step
    written, conn = analysed(runner, tmp_path, ("sunk", "host"))
    [(finding_id, _, _, severity, confidence, message, numbers)] = tiling_findings(conn)
    assert (severity, confidence) == ("medium", "medium")  # 12 us of 1 ms: 1.2 %
    assert json.loads(numbers) == {
        "steps": 3, "host_tiling_ns": 36_000, "host_tiling_ns_per_step": 12_000, "max_step_ns": 12_000,
        "calls_per_step": 1, "share": 0.012, "op_types": 1, "dynamic_op_types": 0, "sunk_updates": 3,
        "chip": "Ascend910B"}
    assert message == (
        "Rank 0: the host tiles 1 operator type again every step (12.000 us per step, 1.2% of the step, over 3 "
        "steps) with the same shapes each time: tiling sink is already on for 3 kernels of this rank; these "
        "operators lack AICPU tiling (TILING_ON_AICPU) or sit outside the static-shape graph.")
    # step 3's 13 tasks of the sunk attention come first in TASK, then the matmul the host launched
    assert [(table, row) for _, table, row, _, _ in evidence_of(conn, finding_id)] == [
        ("cann_api", 2001), ("kernel", 17)]
    assert raw_rows(written.path, "CANN_API", [2001]) == [("GroupedMatmul_Tiling", 12_000)]
    assert raw_rows(written.path, "TASK", [17])[0][2] == "GroupedMatmul"
    columns, rows = queries.get("tiling_sink_kernels").run(conn)
    assert [row[columns.index("op_type")] for row in rows] == ["FusedInferAttentionScore"] * 3
