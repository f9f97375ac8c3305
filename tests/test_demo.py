"""The README's first command: the demo builds a warehouse from every input kind and serves it,
and what a person opens first tells the story planted in it (warehouse/synth/plan.py)."""

import json
import statistics
import urllib.request

import pytest
from click.testing import CliRunner

from tests.built_once import copy_of
from warehouse import db
from warehouse.demo import services
from warehouse.cli import cli

GIB = 1 << 30


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    """One ``warehouse demo --no-serve`` for the module (it takes seconds): its folder and what it printed."""
    folder = tmp_path_factory.mktemp("demo")
    result = CliRunner().invoke(cli, ["demo", "--dir", str(folder), "--no-serve"])
    assert result.exit_code == 0, result.output
    return folder, result.output


@pytest.fixture(scope="module")
def demo_db(demo_run):
    """The demo warehouse, for the tests that read it (never write it: they share it)."""
    return demo_run[0] / "warehouse.db"


def query(db_path, name, *params):
    """A named query's rows as the CLI prints them with --format json."""
    args = ["query", name, "--db", str(db_path), "--format", "json"]
    for param in params:
        args += ["-p", param]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_demo_ingests_every_input_it_writes(demo_run):
    folder, output = demo_run
    conn = db.connect_readonly(folder / "warehouse.db")
    by_kind = dict(conn.execute("SELECT coalesce(kind, status), count(*) FROM source GROUP BY 1").fetchall())
    # torch_npu's own analysis.db beside each database rank included: every file is read
    assert by_kind == {"rank_db": 4, "analysis_db": 4, "trace_json": 2, "kernel_details_csv": 2, "op_profile": 1,
                       "profiler_info_json": 6, "profiler_metadata_json": 6}
    # the planted shape, pipeline 2 x data-parallel 3: rank 3's data-parallel peers are 4 and 5
    groups = json.loads(conn.execute(
        "SELECT value FROM run_metadata WHERE rank_id = 3 AND name = 'parallel_group_info'").fetchone()[0])
    assert sorted((g["group_name"], tuple(g["global_ranks"])) for g in groups.values()) == [
        ("default_group", (0, 1, 2, 3, 4, 5)), ("dp", (3, 4, 5)), ("pp", (0, 3)), ("tp", (3,))]
    assert conn.execute("SELECT count(*) FROM source WHERE status = 'failed'").fetchone()[0] == 0
    ranks = [row[0] for row in conn.execute("SELECT rank_id FROM rank ORDER BY 1")]
    assert ranks == [0, 1, 2, 3, 4, 5]
    origins = dict(conn.execute("SELECT origin, count(DISTINCT rank_id) FROM kernel GROUP BY origin").fetchall())
    assert origins == {"rank_db": 4, "kernel_details_csv": 2}
    assert conn.execute("SELECT count(*) FROM op_run").fetchone()[0] == 1
    # the demo analyses what it ingested and writes the report: the findings name the cluster's run
    runs = dict(conn.execute("SELECT name, run_id FROM run").fetchall())
    findings = conn.execute("SELECT run_id, count(*) FROM finding GROUP BY run_id").fetchall()
    assert findings and runs["inputs"] in {run for run, _ in findings}
    report = (folder / "report.html").read_text(encoding="utf-8")
    assert "Run inputs (run_id" in report and f"{sum(n for _, n in findings)} findings" in output


@pytest.mark.slow
def test_both_services_answer_on_loopback_and_stop(demo_db, tmp_path):
    # a copy: serving folds the write-ahead log into the file
    with services.both_services(copy_of(demo_db, tmp_path / "warehouse.db")) as running:
        assert running.rest_url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(f"{running.rest_url}/queries/timeline_processes?_limit=100") as response:
            body = json.load(response)
        assert {"Python", "CANN", "Ascend Hardware"} <= {row["name"] for row in body["rows"]}
        with urllib.request.urlopen(f"{running.datasette_url}.json?sql=select+count(*)+as+n+from+source") as response:
            assert json.load(response)["rows"][0][0] >= 4
        # the page the demo says to open first: the steps page of the demo's warehouse
        assert running.start_url == running.datasette_url.replace("/warehouse", "/-/warehouse/warehouse/steps")
        with urllib.request.urlopen(running.start_url) as response:
            assert response.status == 200 and "Step time per rank" in response.read().decode()
        rest_port = int(running.rest_url.split(":")[2].split("/")[0])
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{rest_port}/api/v1/health", timeout=2)


def test_rank_3_is_the_slow_rank_in_every_step(demo_db):
    rows = query(demo_db, "step_time")
    steps = {}
    for row in rows:
        steps.setdefault(row["step_id"], {})[row["rank_id"]] = row["duration_ns"]
    # 8 steps on all six ranks, both exports on one clock
    assert sorted(steps) == list(range(1, 9)) and all(sorted(ranks) == list(range(6)) for ranks in steps.values())
    for ranks in steps.values():
        others = [ns for rank, ns in ranks.items() if rank != 3]
        assert ranks[3] > 1.25 * statistics.median(ranks.values()) and ranks[3] > 1.25 * max(others)
    flagged = {(row["rank_id"], row["step_id"]) for row in query(demo_db, "slow_ranks") if row["flagged"]}
    assert flagged == {(3, step) for step in range(1, 9)}


def test_text_ranks_compute_on_the_clock_of_the_database_ranks(demo_db):
    rows = {(row["rank_id"], row["step_id"]): row for row in query(demo_db, "step_time")}
    for rank in (4, 5):
        for step in range(1, 9):
            text, database = rows[rank, step], rows[0, step]
            assert text["basis"] == "derived" and database["basis"] == "analysis_db"
            assert text["duration_ns"] > 1_000_000 and text["computing_ns"] > 500_000
            # a healthy rank of either export: the same step window, the same breakdown
            assert (text["start_ns"], text["duration_ns"], text["computing_ns"], text["communication_ns"]) == (
                database["start_ns"], database["duration_ns"], database["computing_ns"], database["communication_ns"])


def test_the_healthy_ranks_wait_for_rank_3_in_every_allreduce(demo_db):
    waits = {(row["rank_id"], row["step_id"]): row["wait_ns"] for row in query(demo_db, "communication_time_summary")}
    for step in range(1, 9):
        # rank 1 is host-bound in step 5: it arrives later and waits less, but still waits for rank 3
        assert all(waits[rank, step] > 10 * waits[3, step] for rank in (0, 1, 2))
    assert waits[1, 5] < waits[1, 4] == waits[0, 5]


def test_memory_differs_per_rank_and_rank_2_is_near_capacity(demo_db):
    peaks = {row["rank_id"]: row for row in query(demo_db, "memory_peak")}
    assert sorted(peaks) == [0, 1, 2, 3]
    assert len({row["peak_reserved_bytes"] for row in peaks.values()}) == 4
    assert len({row["peak_allocated_bytes"] for row in peaks.values()}) == 4
    near = {rank for rank, row in peaks.items() if row["peak_reserved_bytes"] > 0.9 * 64 * GIB}
    assert near == {2}
    assert all(row["peak_allocated_bytes"] <= row["peak_reserved_bytes"] for row in peaks.values())


def test_the_findings_tell_the_planted_story(demo_db):
    conn = db.connect_readonly(demo_db)
    findings = conn.execute("SELECT finding_type, rank_id, step_id, severity FROM finding").fetchall()
    by_type = {}
    for finding_type, rank, step, severity in findings:
        by_type.setdefault(finding_type, set()).add((rank, step, severity))
    # one finding per rule and subject, holding its steps: rank 3 is slow in all 8 (the first the worst of equals)
    assert by_type["slow_rank_suspected"] == {(3, 1, "high")}
    # every allReduce: the others wait for the rank that started it last, rank 3
    assert by_type["communication_collective_slow"] == {(3, 1, "low")}
    steps = conn.execute("SELECT json_extract(numbers, '$.steps'), json_extract(numbers, '$.worst_step') FROM finding "
                         "WHERE finding_type IN ('slow_rank_suspected', 'communication_collective_slow')").fetchall()
    assert steps == [(8, 1), (8, 1)]
    assert by_type["host_bound_gaps"] == {(1, 5, "medium")}
    assert by_type["memory_peak_near_capacity"] == {(2, 1, "high")}
    # the matrix unit's kernels are the hot spots; nothing else is flagged
    hot = {row[0] for row in conn.execute("SELECT subject FROM finding WHERE finding_type = 'kernel_hotspot'")}
    assert hot == {"MatMulV2_0", "BatchMatMulV2_7", "FlashAttentionScore_8"}
    assert set(by_type) == {"slow_rank_suspected", "communication_collective_slow", "host_bound_gaps",
                            "memory_peak_near_capacity", "kernel_hotspot"}


def test_the_demo_passes_its_own_check(demo_db):
    result = CliRunner().invoke(cli, ["check", "--db", str(demo_db), "--json"])
    report = json.loads(result.output)
    failing = [audit["name"] for audit in report["audits"] if not audit["passed"]]
    assert report["ok"] and result.exit_code == 0, (report["problems"], failing)
    # the profiler's own summaries (analysis.db) agree with what the rank dbs hold
    passed = {audit["name"] for audit in report["audits"] if audit["passed"]}
    assert {"step_breakdown_agrees", "communication_agrees"} <= passed
